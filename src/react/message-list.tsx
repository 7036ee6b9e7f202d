import type { Message } from "@ag-ui/core";
import { Fragment, useEffect, useRef } from "react";
import { describeSurfaceClick, readSurfaceActivity, type SurfaceAction, type ToolActivity } from "../client/index.ts";
import { SurfaceView } from "./surface-view.tsx";
import { ToolActivityItem } from "./tool-activity-item.tsx";
import type { ToolCallView, ToolRenderers } from "./tool-renderers.ts";

/** What generated surfaces in the log do when clicked or when they cannot be shown. */
export interface SurfaceHandlers {
  onAction(action: SurfaceAction): void;
  onError(error: { messageId: string; surfaceId?: string; code: string; message: string }): void;
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
}: {
  messages: Message[];
  activities: ToolActivity[];
  running: boolean;
  /** How browser tools show their calls (useBrowserTool's `render`), beside the call's line. */
  renderers?: ToolRenderers;
  /** Where clicks on generated surfaces go; without them surfaces are shown and their buttons do nothing. */
  surfaces?: SurfaceHandlers;
}) {
  const end = useRef<HTMLDivElement>(null);
  const byCall = new Map(activities.map((activity) => [activity.toolCallId, activity]));
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [messages, activities]);
  return (
    <div className="tether-log" role="log" aria-label="Conversation" aria-live="polite" aria-busy={running}>
      {messages.map((message) => {
        if (message.role === "user") {
          return (
            <article key={message.id} className="tether-message tether-message--user" aria-label="You said">
              {typeof message.content === "string" ? message.content : "(attachment)"}
            </article>
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
                {message.content}
              </article>
            ) : null}
            {calls.length > 0 ? (
              <ol className="tether-activities" aria-label="Tool activity">
                {calls.map((activity) => {
                  const render = renderers?.get(activity.toolName);
                  // The honest line first (what happened, in the library's words), then the tool's own view of the call.
                  return (
                    <Fragment key={activity.toolCallId}>
                      <ToolActivityItem activity={activity} />
                      {render ? (
                        <li className="tether-tool-view" aria-label={`${activity.toolName} view`}>
                          {render(toolCallView(activity, argumentsOf.get(activity.toolCallId)))}
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
      <div ref={end} />
    </div>
  );
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
