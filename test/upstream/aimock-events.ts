import type { AGUIEvent } from "@copilotkit/aimock";
import { defineBrowserTool } from "@tether-agent/tether/protocol";
import { z } from "zod";

/**
 * What aimock's AG-UI endpoint plays as the upstream agent, built as the
 * upstream tests script it: a run, an answer in text, a tool call. aimock
 * names its own thread whatever Tether asks (`upstream-thread`).
 */

/** The page's browser tool in the upstream tests: open a screen by id. */
export const navigateToScreen = defineBrowserTool({
  name: "navigateToScreen",
  kind: "follow-up",
  description: "Opens a screen of the app.",
  parameters: z.object({ screenId: z.string() }),
});

/** One upstream run: started, its events, finished. */
export const upstreamRun = (runId: string, events: AGUIEvent[]): AGUIEvent[] => [
  { type: "RUN_STARTED", threadId: "upstream-thread", runId },
  ...events,
  { type: "RUN_FINISHED", threadId: "upstream-thread", runId },
];

/** One assistant message, said in one delta. */
export const saying = (messageId: string, delta: string): AGUIEvent[] => [
  { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId, delta },
  { type: "TEXT_MESSAGE_END", messageId },
];

/** One tool call, its arguments in one delta. */
export const calling = (toolCallId: string, toolCallName: string, args: object, parentMessageId: string | null = "up-msg"): AGUIEvent[] => [
  { type: "TOOL_CALL_START", toolCallId, toolCallName, parentMessageId } as AGUIEvent,
  { type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify(args) },
  { type: "TOOL_CALL_END", toolCallId },
];
