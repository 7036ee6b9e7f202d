import type { Message } from "@ag-ui/core";
import { Fragment, useEffect, useRef } from "react";
import type { ToolActivity } from "../client/index.ts";
import { ToolActivityItem } from "./tool-activity-item.tsx";
import type { ToolCallView, ToolRenderers } from "./tool-renderers.ts";

/**
 * The conversation as a log: user and assistant messages, and after each
 * assistant message the tools it called with how each one ended.
 */
export function MessageList({
  messages,
  activities,
  running,
  renderers,
}: {
  messages: Message[];
  activities: ToolActivity[];
  running: boolean;
  /** How browser tools show their calls (useBrowserTool's `render`), beside the call's line. */
  renderers?: ToolRenderers;
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
        if (message.role !== "assistant") return null;
        const argumentsOf = new Map((message.toolCalls ?? []).map((call) => [call.id, call.function.arguments]));
        const calls = (message.toolCalls ?? []).map((call) => byCall.get(call.id)).filter((activity) => activity !== undefined);
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
