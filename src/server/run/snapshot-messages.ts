import type { Message } from "@ag-ui/core";
import type { HistoryMode } from "../history/index.ts";

/**
 * The messages a run's MESSAGES_SNAPSHOT carries. `@ag-ui/client` takes a
 * snapshot holding any activity message as the whole truth about activities:
 * it drops every surface the snapshot leaves out. In `server` mode the
 * history is the stored thread, which keeps every surface with its final
 * content. In `client` mode it is what the client sent, and the client never
 * sends activity messages: the run's own surfaces alone would wipe the earlier
 * ones from its screen, so none go, and the client keeps all it holds.
 */
export function snapshotMessages(messages: Message[], mode: HistoryMode): Message[] {
  return mode === "server" ? messages : messages.filter((message) => message.role !== "activity");
}
