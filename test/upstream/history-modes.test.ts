import { AGUIMock, type AGUIRunAgentInput } from "@copilotkit/aimock";
import { EventType, HttpAgent, type BaseEvent } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { listen, type Listening } from "@tether-agent/tether/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen, saying, upstreamRun } from "./aimock-events.ts";

/**
 * What the upstream is sent as the conversation, in both history modes: in
 * `server` mode the thread as Tether holds it, whatever the client sends; in
 * `client` mode the client's messages as they came.
 */

const upstream = new AGUIMock({ port: 0 });
// What the upstream was sent, per Tether thread.
const sent = new Map<string, AGUIRunAgentInput[]>();
let tether: TetherApp;
let server: Listening;

beforeAll(async () => {
  const record = (input: AGUIRunAgentInput) => {
    sent.set(input.threadId ?? "", [...(sent.get(input.threadId ?? "") ?? []), input]);
    return (input.messages ?? []).some((message) => message.role === "tool");
  };
  upstream.addFixture({ match: { predicate: record }, events: upstreamRun("up-2", saying("up-2m", "It is open.")) });
  upstream.addFixture({
    match: { message: "open orders" },
    events: upstreamRun("up-1", [
      { type: "TOOL_CALL_START", toolCallId: "up_nav", toolCallName: "navigateToScreen", parentMessageId: "m" },
      { type: "TOOL_CALL_ARGS", toolCallId: "up_nav", delta: '{"screenId":"orders"}' },
      { type: "TOOL_CALL_END", toolCallId: "up_nav" },
    ]),
  });
  await upstream.start();
  const agents = (["server", "client"] as const).map((history) =>
    defineAgent({ id: `front-${history}`, history, upstream: { url: upstream.url }, browserTools: [navigateToScreen] }),
  );
  tether = await createTetherApp({ agents, authenticate: () => ({ id: "kim" }), store: createMemoryRunStore(), logger: silentLogger });
  server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await server?.close();
  await tether?.close();
  await upstream.stop();
});

async function turn(agent: HttpAgent) {
  const events: BaseEvent[] = [];
  await agent.runAgent({ tools: [toAgUiTool(navigateToScreen)] }, { onEvent: ({ event }) => void events.push(event) });
  return events;
}
const roles = (input: AGUIRunAgentInput | undefined) => (input?.messages ?? []).map((message) => `${message.role}:${message.id}`);

describe("the conversation an upstream agent is sent", () => {
  it("in server mode is the thread Tether holds, though the client sends only what is new", async () => {
    const threadId = "hm-server";
    const agent = new HttpAgent({ url: `${server.url}/api/agents/front-server/run`, threadId });
    agent.addMessage({ id: "u1", role: "user", content: "open orders" });
    const first = await turn(agent);
    expect(first.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { pendingToolCallIds: ["up_nav"] } });
    // The client forgets everything but the browser's outcome: the upstream is still sent the whole thread.
    agent.setMessages([{ id: "t1", role: "tool", toolCallId: "up_nav", content: '{"status":"succeeded"}' }]);
    await turn(agent);
    const [asked, continued] = sent.get(threadId)!;
    expect(roles(asked)).toEqual(["user:u1"]);
    expect(roles(continued)).toEqual(["user:u1", expect.stringMatching(/^assistant:/), "tool:t1"]);
  });

  it("in client mode is the client's messages as they came", async () => {
    const threadId = "hm-client";
    const agent = new HttpAgent({ url: `${server.url}/api/agents/front-client/run`, threadId });
    agent.addMessage({ id: "u1", role: "user", content: "open orders" });
    await turn(agent);
    agent.addMessage({ id: "t1", role: "tool", toolCallId: "up_nav", content: '{"status":"succeeded"}' });
    const history = agent.messages.map((message) => `${message.role}:${message.id}`);
    const second = await turn(agent);
    expect(second.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "success" } });
    const [, continued] = sent.get(threadId)!;
    expect(roles(continued)).toEqual(history);
  });
});
