import { EventType } from "@ag-ui/core";
import type { ReadEvent } from "./read-run-events.ts";
import type { ToolDispatchTiming } from "./session-types.ts";

/**
 * Instrumentation, kept on the session: how long each browser call waited
 * between its TOOL_CALL_END arriving and its tool being called, for someone
 * who measures dispatch (`onToolDispatch`).
 */
export function createToolDispatchTiming(onToolDispatch: (timing: ToolDispatchTiming) => void) {
  // The TOOL_CALL_END being read right now.
  let endArrival: { toolCallId: string; at: number } | undefined;
  return {
    /** The tool runner's `onDispatch`: called just before a browser tool's code runs. */
    onDispatch(call: { toolCallId: string; toolName: string; runId: string }) {
      if (endArrival?.toolCallId !== call.toolCallId) return; // dispatched later than its END (an approval came): not a dispatch latency
      onToolDispatch({
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        runId: call.runId,
        endArrivedAt: endArrival.at,
        dispatchedAt: performance.now(),
      });
    },
    /** The event reader, noting when each TOOL_CALL_END arrived while it is read. */
    reading(readEvent: ReadEvent): ReadEvent {
      return (event, live) => {
        if (event.type === EventType.TOOL_CALL_END) endArrival = { toolCallId: (event as unknown as { toolCallId: string }).toolCallId, at: performance.now() };
        readEvent(event, live);
        endArrival = undefined;
      };
    },
  };
}
