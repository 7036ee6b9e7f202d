import type { Message } from "@ag-ui/core";
import { Fragment, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { describeSurfaceClick, readSurfaceActivity, type SurfaceAction, type ToolActivity, type UnsentMessage } from "../client/index.ts";
import { Markdown } from "./markdown.tsx";
import { ServerToolCallItem, type ToolRendererError } from "./server-tool-call-item.tsx";
import { SurfaceView } from "./surface-view.tsx";
import { ToolActivityItem } from "./tool-activity-item.tsx";
import type { ToolCallView, ToolRenderers } from "./tool-renderers.ts";

/** What generated surfaces in the log do when clicked or when they cannot be shown. */
export interface SurfaceHandlers {
  onAction(action: SurfaceAction): void;
  onError(error: { messageId: string; surfaceId?: string; code: string; message: string }): void;
}

/** What happened to messages besides their text (one not sent, with Retry; answers the person stopped), and what can be done to them. */
export interface MessageMarks {
  unsent?: UnsentMessage;
  stopped: ReadonlySet<string>;
  onRetry(): void;
  /** The answer Regenerate replaces (`session.regenerableAnswer()`); absent while there is none. */
  regenerable?: string;
  onRegenerate?(): void;
}

// The render call's surface stands at its own place in the log, so its line in the tool list would say it twice.
const SHOWN_AS_SURFACE = new Set(["render_a2ui"]);

/**
 * The conversation as a log: user and assistant messages, after each
 * assistant message the tools it called with how each one ended, and the
 * surfaces the agent generated where they arrived.
 */
export function MessageList({
  messages,
  activities,
  running,
  renderers,
  surfaces,
  marks,
  onRendererError,
}: {
  messages: Message[];
  activities: ToolActivity[];
  running: boolean;
  /** How tools show their calls: browser tools' beside the call's line (useBrowserTool's `render`), server tools' in its place (useToolRenderer). */
  renderers?: ToolRenderers;
  /** A server tool's renderer threw: its call is shown as its line, and this is told once per call and error. */
  onRendererError?: (error: ToolRendererError) => void;
  /** Where clicks on generated surfaces go; without them surfaces are shown and their buttons do nothing. */
  surfaces?: SurfaceHandlers;
  /** Not sent, stopped: shown beside the messages they concern. */
  marks?: MessageMarks;
}) {
  const log = useRef<HTMLDivElement>(null);
  const byCall = new Map(activities.map((activity) => [activity.toolCallId, activity]));
  const resultOf = new Map(messages.flatMap((message) => (message.role === "tool" ? [[message.toolCallId, message.content] as const] : [])));
  const { unseen, follow, onScroll, showLatest } = useFollowLatest(log);
  const lastMessage = messages.at(-1);
  const regenerable = marks?.onRegenerate && !running ? marks.regenerable : undefined;
  const sentMessageId = lastMessage?.role === "user" ? lastMessage.id : undefined;
  useLayoutEffect(() => {
    // New content is followed only by a reader already at the bottom, or who just sent a message;
    // someone reading further up stays where they are and is told there is more.
    follow(sentMessageId);
  }, [messages, activities, follow, sentMessageId]);
  return (
    <>
      <div ref={log} onScroll={onScroll} className="tether-log" role="log" aria-label="Conversation" aria-live="polite" aria-busy={running}>
        {messages.map((message) => {
          if (message.role === "user") {
            const unsent = marks?.unsent?.messageId === message.id ? marks.unsent : undefined;
            return (
              <Fragment key={message.id}>
                <article className={`tether-message tether-message--user${unsent ? " tether-message--unsent" : ""}`} aria-label="You said">
                  {typeof message.content === "string" ? message.content : "(attachment)"}
                </article>
                {unsent ? (
                  <p className="tether-message__mark tether-message__mark--unsent" role="alert">
                    Not sent: {unsent.error.message}{" "}
                    {unsent.retryable ? (
                      <button type="button" className="tether-message__retry" onClick={marks?.onRetry} disabled={running}>
                        Retry
                      </button>
                    ) : (
                      "Change it in the message box and send it again."
                    )}
                  </p>
                ) : null}
                {marks?.stopped.has(message.id) ? <p className="tether-message__mark">Stopped before an answer.</p> : null}
                {message.id === regenerable ? (
                  <div className="tether-message__actions tether-message__actions--question">
                    <RegenerateButton marks={marks} />
                  </div>
                ) : null}
              </Fragment>
            );
          }
          const surface = readSurfaceActivity(message);
          if (surface) {
            return (
              <SurfaceView
                key={message.id}
                messageId={message.id}
                activity={surface}
                onAction={(action) => surfaces?.onAction(action)}
                onError={(error) => surfaces?.onError({ messageId: message.id, ...error })}
                disabled={running}
              />
            );
          }
          const click = describeSurfaceClick(message, messages);
          if (click) {
            return (
              <p key={message.id} className="tether-message tether-message--action" aria-label="You chose">
                {click}
              </p>
            );
          }
          if (message.role !== "assistant") return null;
          const argumentsOf = new Map((message.toolCalls ?? []).map((call) => [call.id, call.function.arguments]));
          const calls = (message.toolCalls ?? [])
            .map((call) => byCall.get(call.id))
            .filter((activity): activity is ToolActivity => activity !== undefined && !SHOWN_AS_SURFACE.has(activity.toolName));
          if (!message.content && calls.length === 0) return null;
          return (
            <div key={message.id} className="tether-turn">
              {message.content ? (
                <article className="tether-message tether-message--assistant" aria-label="Assistant said">
                  <Markdown text={message.content} streaming={running && message === messages.at(-1)} />
                </article>
              ) : null}
              {marks?.stopped.has(message.id) ? <p className="tether-message__mark">Stopped: the answer is incomplete.</p> : null}
              {message.content && !(running && message === messages.at(-1)) ? (
                <div className="tether-message__actions">
                  <CopyButton text={message.content} />
                  {message.id === regenerable ? <RegenerateButton marks={marks} /> : null}
                </div>
              ) : null}
              {calls.length > 0 ? (
                <ol className="tether-activities" aria-label="Tool activity">
                  {calls.map((activity) => {
                    const server = activity.location === "server" ? renderers?.getServer(activity.toolName) : undefined;
                    if (server) {
                      return (
                        <ServerToolCallItem
                          key={activity.toolCallId}
                          activity={activity}
                          argumentsText={argumentsOf.get(activity.toolCallId)}
                          resultContent={resultOf.get(activity.toolCallId)}
                          render={server}
                          onError={onRendererError}
                        />
                      );
                    }
                    const view = renderers?.get(activity.toolName);
                    const call = view ? toolCallView(activity, argumentsOf.get(activity.toolCallId)) : undefined;
                    // The honest line first (what happened, in words), then the tool's own view of the call.
                    return (
                      <Fragment key={activity.toolCallId}>
                        <ToolActivityItem activity={activity} words={call && view?.describe?.(call)} />
                        {call && view?.render ? (
                          <li className="tether-tool-view" aria-label={`${activity.toolName} view`}>
                            {view.render(call)}
                          </li>
                        ) : null}
                      </Fragment>
                    );
                  })}
                </ol>
              ) : null}
            </div>
          );
        })}
        {running ? (
          <p className="tether-typing" aria-label="The assistant is working">
            …
          </p>
        ) : null}
      </div>
      {unseen ? (
        <button type="button" className="tether-log__latest" onClick={showLatest}>
          New messages ↓
        </button>
      ) : null}
    </>
  );
}

/** Copies an answer's text, and says so for a moment. */
function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState<"copied" | "failed">();
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setCopied("copied"),
      () => setCopied("failed"),
    );
  useLayoutEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(undefined), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button type="button" className="tether-message__copy" onClick={() => void copy()}>
      {copied === "copied" ? "Copied" : copied === "failed" ? "Could not copy" : "Copy"}
    </button>
  );
}

/** How close to the end counts as reading the latest (a line's height of slack). */
const AT_END_PX = 24;

/**
 * Follows the log's end while the reader is there. Whether they are is
 * tracked as they scroll, so it is known before new content moves the end.
 */
function useFollowLatest(log: RefObject<HTMLDivElement | null>) {
  const atEnd = useRef(true);
  const seenLength = useRef(0);
  /** The sent message the log last went down for: it goes down once per message, not on every change until the answer starts. */
  const followedSend = useRef<string | undefined>(undefined);
  const [unseen, setUnseen] = useState(false);
  const toEnd = () => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
    atEnd.current = true;
    setUnseen(false);
  };
  const follow = (sentMessageId: string | undefined) => {
    const element = log.current;
    if (!element) return;
    const grew = element.scrollHeight !== seenLength.current;
    seenLength.current = element.scrollHeight;
    const justSent = sentMessageId !== undefined && sentMessageId !== followedSend.current;
    if (justSent) followedSend.current = sentMessageId;
    if (justSent || atEnd.current) toEnd();
    else if (grew) setUnseen(true);
  };
  const onScroll = () => {
    const element = log.current;
    if (!element) return;
    atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_END_PX;
    if (atEnd.current) setUnseen(false);
  };
  return { unseen, follow: useStableCallback(follow), onScroll, showLatest: toEnd };
}

/** The latest `fn`, under one identity: effects that call it do not rerun because it was redefined. */
function useStableCallback<Args extends unknown[]>(fn: (...args: Args) => void): (...args: Args) => void {
  const latest = useRef(fn);
  latest.current = fn;
  const [stable] = useState(
    () =>
      (...args: Args) =>
        latest.current(...args),
  );
  return stable;
}

/** What a tool's renderer is given: the arguments, parsed, and the call's progress. */
function toolCallView(activity: ToolActivity, argumentsText: string | undefined): ToolCallView {
  let args: unknown;
  try {
    args = argumentsText ? JSON.parse(argumentsText) : undefined;
  } catch {
    args = undefined; // still streaming, or not JSON: the renderer shows the call without them
  }
  return {
    toolCallId: activity.toolCallId,
    args,
    status: activity.status,
    ...(activity.stage ? { stage: activity.stage } : {}),
    ...(activity.reason ? { reason: activity.reason } : {}),
    ...(activity.message ? { message: activity.message } : {}),
  };
}

/** Asks for the answer again. The button goes with the answer, so focus waits in the message box rather than falling to the page. */
function RegenerateButton({ marks }: { marks: MessageMarks | undefined }) {
  const regenerate = (button: HTMLElement) => {
    (button.closest(".tether-panel") ?? document).querySelector<HTMLTextAreaElement>("textarea[aria-label='Message the assistant']")?.focus();
    marks?.onRegenerate?.();
  };
  return (
    <button type="button" className="tether-message__regenerate" onClick={(event) => regenerate(event.currentTarget)}>
      Regenerate
    </button>
  );
}
