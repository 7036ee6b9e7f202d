import { EventType, buildResumeArray, type AgentSubscriber, type BaseEvent, type HttpAgent, type Interrupt, type Message } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { callNamed, resultOf, spoken } from "../helpers/run-events.ts";

/**
 * The demo's `workdesk-adk` (apps/workdesk/adk/): the Workdesk story played by
 * an ADK `LlmAgent` on the offline playbook, over HTTP with the unmodified
 * AG-UI `HttpAgent`, the test acting as the page. The same two turns as the
 * built-in agent, the same rights, and closing a request only once a manager
 * approved it.
 */
const tools = [toAgUiTool(navigateToScreen)];
const OPENED = { status: "succeeded", stage: "displayed", message: "Work request list is open.", data: { route: "/work-requests" } };

interface RunResult {
  events: BaseEvent[];
  pendingToolCallIds: string[];
  failed?: Error;
}

/** One run through the unmodified HttpAgent, which parses, enforces and verifies the stream. */
async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<RunResult> {
  const result: RunResult = { events: [], pendingToolCallIds: [] };
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => void result.events.push(event),
    onRunFinishedEvent: (params) => {
      if (params.outcome === "success") result.pendingToolCallIds = params.pendingToolCallIds;
    },
    onRunFailed: ({ error }) => {
      result.failed = error;
    },
  };
  await agent.runAgent({ tools, ...parameters }, subscriber);
  expect(result.failed).toBeUndefined();
  return result;
}

const lastText = (messages: Message[]) => (messages.filter((message) => message.role === "assistant" && message.content).at(-1)?.content as string) ?? "";
const starts = (events: BaseEvent[]) =>
  events.filter((event) => event.type === EventType.TOOL_CALL_START).map((event) => (event as BaseEvent & { toolCallName: string }).toolCallName);

/**
 * The page's part: performs each browser call it is handed, once (a call it already performed is not
 * performed again, whatever a later run says), and reports the outcome in the next run.
 */
function createPage(agent: HttpAgent, outcome: object) {
  const performed: string[] = [];
  return {
    performed,
    async continueAfter(previous: RunResult): Promise<RunResult | undefined> {
      const fresh = previous.pendingToolCallIds.filter((id) => !performed.includes(id));
      if (fresh.length === 0) return undefined;
      for (const toolCallId of fresh) {
        performed.push(toolCallId);
        agent.addMessage({ id: `outcome-${toolCallId}`, role: "tool", toolCallId, content: JSON.stringify(outcome) });
      }
      return run(agent);
    },
  };
}

describe("the Workdesk story on the ADK agent, over the unmodified HttpAgent", () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  it("looks the screen up on the server, has the page open it once, and says it is open only from the page's report", async () => {
    const agent = server.agent("kim", "adk-story-1", "workdesk-adk");
    const page = createPage(agent, OPENED);
    agent.addMessage({ id: "adk-story-1-u1", role: "user", content: "open the work request list" });
    const first = await run(agent);
    expect(starts(first.events)).toEqual(["lookupScreens", "navigateToScreen"]);
    // ADK's own tool ran on the server, within kim's screens.
    const lookup = JSON.parse(resultOf(first.events, callNamed(first.events, "lookupScreens"))!);
    expect(lookup).toMatchObject({ orgScope: "ORG-01" });
    expect(lookup.candidates[0]).toMatchObject({ screenId: "MNU-3120" });
    const navigation = callNamed(first.events, "navigateToScreen");
    expect(first.pendingToolCallIds).toEqual([navigation]);
    // The server does not pretend the browser's call happened, nor the model that the screen is open.
    expect(resultOf(first.events, navigation)).toBeUndefined();
    expect(spoken(first.events)).toBe("Opening Work request list…");

    const second = await page.continueAfter(first);
    expect(page.performed).toEqual([navigation]);
    expect(starts(second!.events)).toEqual([]);
    expect(second!.pendingToolCallIds).toEqual([]);
    expect(spoken(second!.events)).toBe("Work request list is open now.");
    expect(lastText(agent.messages)).toBe("Work request list is open now.");
    // Nothing is left for the page to do, and the thread agrees.
    expect(await page.continueAfter(second!)).toBeUndefined();
    const thread = await (await fetch(`${server.url}/api/threads/adk-story-1`, { headers: { Authorization: `Bearer ${server.token("kim")}` } })).json();
    expect(thread.pendingToolCalls).toEqual([]);
    expect(thread.runs).toHaveLength(2);
  });

  it("says the screen could not be opened when the page reports access_denied, and gives no claim of success", async () => {
    const agent = server.agent("kim", "adk-story-2", "workdesk-adk");
    const page = createPage(agent, { status: "failed", stage: "requested", reason: "access_denied" });
    agent.addMessage({ id: "adk-story-2-u1", role: "user", content: "open the work request list" });
    const second = await page.continueAfter(await run(agent));
    expect(page.performed).toHaveLength(1);
    const said = spoken(second!.events);
    expect(said).toBe("I couldn't open Work request list: your account doesn't have access to it. If you need it, ask an administrator.");
  });

  it("lets each user see exactly what the Tether agent lets them see", async () => {
    for (const [user, ask] of [
      ["kim", "take me to R-1042"],
      ["park", "take me to R-1042"],
      ["park", "find badge reader requests"],
      ["kim", "find badge reader requests"],
    ] as const) {
      const results = [];
      for (const agentId of ["workdesk", "workdesk-adk"]) {
        const agent = server.agent(user, `adk-rights-${agentId}-${user}-${ask.length}`, agentId);
        agent.addMessage({ id: `adk-rights-${agentId}-${user}-${ask.length}-u1`, role: "user", content: ask });
        const { events } = await run(agent);
        const [name] = starts(events);
        results.push({ name, result: JSON.parse(resultOf(events, callNamed(events, name!))!) });
      }
      expect(results[1], `${user}: "${ask}"`).toEqual(results[0]);
    }
  });
});

describe("closing a work request on the ADK agent", () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const workRequest = async (user: string, id: string) =>
    (await (await fetch(`${server.url}/api/workdesk/requests/${id}`, { headers: { Authorization: `Bearer ${server.token(user)}` } })).json()).request;

  async function askToClose(user: string, threadId: string, text: string) {
    const agent = server.agent(user, threadId, "workdesk-adk");
    agent.addMessage({ id: `${threadId}-u1`, role: "user", content: text });
    const first = await run(agent);
    return { agent, first, interrupt: agent.pendingInterrupts[0] as Interrupt | undefined };
  }

  it("asks the manager first, and closes the request only once they approved", async () => {
    const { agent, first, interrupt } = await askToClose("lee", "adk-close-1", "close R-1042 as fixed");
    const call = callNamed(first.events, "closeWorkRequest");
    expect(interrupt).toMatchObject({
      reason: "tool_approval",
      toolCallId: call,
      message: 'Close R-1042 "Replace broken badge reader at Gate 3" as "fixed"?',
      metadata: { tether: { toolName: "closeWorkRequest", arguments: { requestId: "R-1042", resolution: "fixed" } } },
    });
    expect(resultOf(first.events, call)).toBeUndefined();
    expect(spoken(first.events)).toBe(`I'll close R-1042 as "fixed" once you approve.`);
    expect(await workRequest("lee", "R-1042")).toMatchObject({ status: "open" });

    const second = await run(agent, {
      resume: buildResumeArray(agent.pendingInterrupts, { [interrupt!.id]: { status: "resolved", payload: { approved: true } } }),
    });
    // The result answers the call the manager approved: no new call.
    expect(starts(second.events)).toEqual([]);
    expect(JSON.parse(resultOf(second.events, call)!)).toMatchObject({ closed: true, requestId: "R-1042", status: "closed", resolution: "fixed" });
    expect(spoken(second.events)).toBe("R-1042 is closed (resolution: fixed).");
    expect(agent.pendingInterrupts).toEqual([]);
    expect(await workRequest("lee", "R-1042")).toMatchObject({ status: "closed", resolution: "fixed" });

    // Asked again, nobody is asked to approve a close that would change nothing.
    const again = await askToClose("lee", "adk-close-1b", "close R-1042 as fixed");
    expect(again.interrupt).toBeUndefined();
    expect(lastText(again.agent.messages)).toMatch(/^R-1042 was already closed \(resolution: fixed, closed \d{4}-\d{2}-\d{2}\), so I didn't close it again\.$/);
  });

  it("closes nothing when the manager rejects", async () => {
    const { agent, first, interrupt } = await askToClose("lee", "adk-close-2", "close R-1005 as fixed");
    const before = await workRequest("lee", "R-1005");
    const second = await run(agent, {
      resume: buildResumeArray(agent.pendingInterrupts, { [interrupt!.id]: { status: "resolved", payload: { approved: false, comment: "not yet" } } }),
    });
    expect(JSON.parse(resultOf(second.events, callNamed(first.events, "closeWorkRequest"))!)).toMatchObject({ status: "rejected", comment: "not yet" });
    expect(spoken(second.events)).not.toMatch(/is closed/);
    expect(await workRequest("lee", "R-1005")).toEqual(before);
  });

  it("tells a requester they cannot close a high-priority request, without asking anyone", async () => {
    const { agent, first, interrupt } = await askToClose("kim", "adk-close-3", "close R-1008 as fixed");
    expect(interrupt).toBeUndefined();
    expect(agent.pendingInterrupts).toEqual([]);
    expect(JSON.parse(resultOf(first.events, callNamed(first.events, "closeWorkRequest"))!)).toEqual({
      error: "R-1008 is high priority: only a manager can close it.",
    });
    expect(lastText(agent.messages)).toBe("That didn't work: R-1008 is high priority: only a manager can close it.");
    expect(await workRequest("kim", "R-1008")).toMatchObject({ status: "open" });
  });
});
