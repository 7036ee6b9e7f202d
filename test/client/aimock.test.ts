import { AGUIMock, type AGUIEvent, type AGUIRunAgentInput } from "@copilotkit/aimock";
import type { Message } from "@ag-ui/core";
import { createAgentSession, type BrowserToolHandler } from "@tether-agent/tether/client";
import type { ToolOutcome } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/navigate-to-screen.ts";

/**
 * The Tether browser client against a third-party AG-UI server:
 * `@copilotkit/aimock`'s AG-UI mock, which knows nothing of Tether. It serves
 * plain `RunAgentInput` → SSE at one URL, so the session is given that run URL
 * and no Tether API: runs and browser tools work, and the Tether-only routes
 * (resume, restore, drift check, reports) are not used.
 */

const THREAD_ID = "thread-aimock-1";
const TOOL_CALL_ID = "call-nav-1";
const ARGS = { screenId: "MNU-3120", screenName: "Work request list" };
const ARGS_JSON = JSON.stringify(ARGS);
const REPLY = "Work request list is open now.";
const OUTCOME: ToolOutcome = { status: "succeeded", stage: "displayed", data: { route: "/work-requests" } };

/** Run 1: the agent asks the browser to navigate, the arguments streamed in three pieces; no server-side result. */
const toolCallRun: AGUIEvent[] = [
  { type: "RUN_STARTED", threadId: THREAD_ID, runId: "run-1" },
  { type: "TOOL_CALL_START", toolCallId: TOOL_CALL_ID, toolCallName: "navigateToScreen", parentMessageId: "msg-assistant-1" },
  { type: "TOOL_CALL_ARGS", toolCallId: TOOL_CALL_ID, delta: ARGS_JSON.slice(0, 9) },
  { type: "TOOL_CALL_ARGS", toolCallId: TOOL_CALL_ID, delta: ARGS_JSON.slice(9, 30) },
  { type: "TOOL_CALL_ARGS", toolCallId: TOOL_CALL_ID, delta: ARGS_JSON.slice(30) },
  { type: "TOOL_CALL_END", toolCallId: TOOL_CALL_ID },
  // A plain AG-UI server: no `outcome.pendingToolCallIds`; the reference client derives them from unanswered calls.
  { type: "RUN_FINISHED", threadId: THREAD_ID, runId: "run-1" },
];

/** Run 2: the continuation carrying the tool message; the agent speaks from the outcome. */
const replyRun: AGUIEvent[] = [
  { type: "RUN_STARTED", threadId: THREAD_ID, runId: "run-2" },
  { type: "TEXT_MESSAGE_START", messageId: "msg-assistant-2", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "msg-assistant-2", delta: "Work request list " },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "msg-assistant-2", delta: "is open now." },
  { type: "TEXT_MESSAGE_END", messageId: "msg-assistant-2" },
  { type: "RUN_FINISHED", threadId: THREAD_ID, runId: "run-2" },
];

/** A tool message that reports a succeeded navigation, as the browser sends it back. */
const carriesSucceededOutcome = (input: AGUIRunAgentInput) => {
  const last = input.messages?.at(-1);
  return last?.role === "tool" && typeof last.content === "string" && JSON.parse(last.content).status === "succeeded";
};

const lastAssistantText = (messages: Message[]) =>
  messages.filter((message) => message.role === "assistant" && typeof message.content === "string" && message.content).at(-1)?.content;

describe("the browser client against a third-party AG-UI server (@copilotkit/aimock)", () => {
  const mock = new AGUIMock({ port: 0 });
  /** Every RUN_AGENT request body as aimock parsed it (its request journal keeps no AG-UI bodies). */
  const received: AGUIRunAgentInput[] = [];

  beforeAll(async () => {
    // Fixtures are tried in order, first match wins.
    mock.onPredicate((input) => {
      received.push(structuredClone(input));
      return false;
    }, []);
    // The continuation: the last message answers the call, and it carries the outcome.
    mock.addFixture({ match: { toolCallId: TOOL_CALL_ID, predicate: carriesSucceededOutcome }, events: replyRun, delayMs: 2 });
    // The first run: the user's message, with the browser tool declared.
    mock.addFixture({ match: { message: "open the work request list", toolName: "navigateToScreen" }, events: toolCallRun, delayMs: 2 });
    await mock.start();
  });
  afterAll(async () => {
    await mock.stop();
  });

  it("streams a browser tool call, executes it once, sends the outcome in a continuation run, and shows the reply", async () => {
    const session = createAgentSession({ runUrl: `${mock.url}/`, threadId: THREAD_ID, drift: "ignore" });
    const execute = vi.fn<BrowserToolHandler["execute"]>(() => OUTCOME);
    session.registerTool({ spec: navigateToScreen, execute });

    await session.send("open the work request list");
    expect(session.getState().error).toBeUndefined();

    // The executor ran exactly once, at TOOL_CALL_END, with the arguments joined from three deltas.
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]![0]).toEqual(ARGS);
    expect(execute.mock.calls[0]![1]).toEqual({ toolCallId: TOOL_CALL_ID, runId: "run-1", threadId: THREAD_ID, mode: "side" });

    // aimock sent no pendingToolCallIds: the client worked them out from the unanswered call.

    // What aimock received: two standard RunAgentInputs on the same thread, the tool declared in both.
    expect(received).toHaveLength(2);
    const [first, second] = received as [AGUIRunAgentInput, AGUIRunAgentInput];
    for (const input of received) {
      expect(input.threadId).toBe(THREAD_ID);
      expect(input.tools).toEqual([{ name: "navigateToScreen", description: navigateToScreen.description, parameters: navigateToScreen.parameters }]);
    }
    expect(first.messages).toEqual([{ id: expect.any(String), role: "user", content: "open the work request list" }]);
    expect(first.forwardedProps).toEqual({ tether: { trigger: { kind: "user-message" } } });

    // The continuation carries the assistant's call and the tool message whose content is the outcome.
    expect(second.runId).not.toBe(first.runId);
    // The parent is the run as the server named it in its events.
    expect(second.forwardedProps).toEqual({ tether: { trigger: { kind: "tool-result", parentRunId: "run-1", toolCallIds: [TOOL_CALL_ID] } } });
    expect(second.messages?.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(second.messages?.[1]).toMatchObject({
      id: "msg-assistant-1",
      role: "assistant",
      toolCalls: [{ id: TOOL_CALL_ID, type: "function", function: { name: "navigateToScreen", arguments: ARGS_JSON } }],
    });
    const toolMessage = second.messages?.[2];
    expect(toolMessage).toMatchObject({ role: "tool", toolCallId: TOOL_CALL_ID });
    expect(JSON.parse(toolMessage?.content as string)).toEqual(OUTCOME);

    // The reply streamed by aimock's second fixture is the conversation's last word.
    const state = session.getState();
    expect(lastAssistantText(state.messages)).toBe(REPLY);
    expect(state.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(state.activities).toEqual([
      { toolCallId: TOOL_CALL_ID, toolName: "navigateToScreen", runId: "run-1", location: "browser", status: "succeeded", stage: "displayed" },
    ]);
  });
});
