import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType, buildResumeArray, type BaseEvent, type HttpAgent, type Interrupt, type Message } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "./helpers/demo-server.ts";

const tools = [toAgUiTool(navigateToScreen)];
type ResultEvent = BaseEvent & { toolCallId: string; content: string };

async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await agent.runAgent({ tools, ...parameters }, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

const lastText = (messages: Message[]) => (messages.filter((message) => message.role === "assistant" && message.content).at(-1)?.content as string) ?? "";
const toolResults = (events: BaseEvent[]) =>
  events.filter((event): event is ResultEvent => event.type === EventType.TOOL_CALL_RESULT).map((event) => JSON.parse(event.content));

/** Asks in a new thread; the run ends with the answer, or waiting for approval. */
async function ask(server: DemoServer, user: string, threadId: string, text: string) {
  const agent = server.agent(user, threadId);
  agent.addMessage({ id: `${threadId}-u1`, role: "user", content: text });
  const events = await run(agent);
  return { agent, events };
}

async function approve(agent: HttpAgent) {
  const [interrupt] = agent.pendingInterrupts as [Interrupt];
  return run(agent, { resume: buildResumeArray([interrupt], { [interrupt.id]: { status: "resolved", payload: { approved: true } } }) });
}

async function readRequest(server: DemoServer, user: string, id: string) {
  const response = await fetch(`${server.url}/api/workdesk/requests/${id}`, { headers: { Authorization: `Bearer ${server.token(user)}` } });
  expect(response.status).toBe(200);
  return (await response.json()).request;
}

describe("the Workdesk's records across a restart", () => {
  // One data folder for both servers, as one machine restarting the demo has.
  let dataDir: string;
  let server: DemoServer | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "tether-restart-"));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps R-1042 closed after a restart, and does not close it a second time", async () => {
    server = await startDemoServer({ dataDir });
    const { agent } = await ask(server, "lee", "restart-close", "close R-1042 as fixed");
    expect(agent.pendingInterrupts).toHaveLength(1);
    const approved = await approve(agent);
    expect(toolResults(approved)).toMatchObject([{ closed: true, requestId: "R-1042", resolution: "fixed" }]);
    const closedBefore = await readRequest(server, "lee", "R-1042");
    expect(closedBefore).toMatchObject({ status: "closed", resolution: "fixed" });
    await server.close();

    server = await startDemoServer({ dataDir });
    // The app's own screen reads it closed…
    expect(await readRequest(server, "lee", "R-1042")).toEqual(closedBefore);
    // …and so does the agent's search.
    const { events: searched } = await ask(server, "lee", "restart-find", "find R-1042");
    expect(toolResults(searched)).toMatchObject([{ total: 1, requests: [{ id: "R-1042", status: "closed" }] }]);

    // Asking again closes nothing: nobody is asked to approve a close that would change nothing, and the result says when it was closed and how.
    const again = await ask(server, "lee", "restart-close-again", "close R-1042 as fixed");
    expect(again.agent.pendingInterrupts).toEqual([]);
    expect(toolResults(again.events)).toEqual([
      {
        closed: false,
        alreadyClosed: true,
        requestId: "R-1042",
        title: "Replace broken badge reader at Gate 3",
        status: "closed",
        resolution: "fixed",
        closedAt: closedBefore.closedAt,
      },
    ]);
    expect(lastText(again.agent.messages)).toMatch(/R-1042 was already closed/);
    expect(await readRequest(server, "lee", "R-1042")).toEqual(closedBefore);
  });

  it("executes only the first of two approvals to close one request, even with a restart between them", async () => {
    server = await startDemoServer({ dataDir });
    const first = await ask(server, "lee", "twice-1", "close R-1005 as fixed");
    const second = await ask(server, "lee", "twice-2", "close R-1005 as replaced");
    expect(first.agent.pendingInterrupts).toHaveLength(1);
    expect(second.agent.pendingInterrupts).toHaveLength(1);
    expect(toolResults(await approve(first.agent))).toMatchObject([{ closed: true, requestId: "R-1005", resolution: "fixed" }]);
    const closed = await readRequest(server, "lee", "R-1005");
    await server.close();

    // The second approval survives the restart with its thread, and finds the request already closed.
    server = await startDemoServer({ dataDir });
    const secondAgent = server.agent("lee", "twice-2");
    secondAgent.setMessages(second.agent.messages);
    const [interrupt] = second.agent.pendingInterrupts as [Interrupt];
    const events = await run(secondAgent, { resume: buildResumeArray([interrupt], { [interrupt.id]: { status: "resolved", payload: { approved: true } } }) });
    expect(toolResults(events)).toMatchObject([{ closed: false, alreadyClosed: true, requestId: "R-1005", resolution: "fixed", closedAt: closed.closedAt }]);
    expect(await readRequest(server, "lee", "R-1005")).toEqual(closed);
  });
});
