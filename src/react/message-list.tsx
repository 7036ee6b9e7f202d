import type { Message } from "@ag-ui/core";
import { useEffect, useRef } from "react";
import type { ToolActivity } from "../client/index.ts";
import { ToolActivityItem } from "./tool-activity-item.tsx";

/**
 * The conversation as a log: user and assistant messages, and after each
 * assistant message the tools it called with how each one ended.
 */
export function MessageList({ messages, activities, running }: { messages: Message[]; activities: ToolActivity[]; running: boolean }) {
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
                {calls.map((activity) => (
                  <ToolActivityItem key={activity.toolCallId} activity={activity} />
                ))}
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
