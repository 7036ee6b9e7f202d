import { AGUIMock, Journal } from "@copilotkit/aimock";
import { EventType, HttpAgent, type BaseEvent } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createCountingIds } from "@tether-agent/tether/testing";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { listen, type Listening } from "@tether-agent/tether/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calling, navigateToScreen, saying, upstreamRun } from "./aimock-events.ts";

/**
 * An upstream AG-UI agent Tether did not write, on the wire: aimock's AG-UI
 * endpoint plays the agent, event by event, and Tether stands in front of it
 * with `defineAgent({ upstream: { url } })`. What Tether adds on the way is
 * checked here: its own ids and sequence, the allow-list, calls the upstream
 * may not make, results it may not give, its failures in Tether's words.
 */

const upstream = new AGUIMock({ port: 0 });
// What the upstream was sent: each request's headers.
const journal = new Journal();
upstream.setJournal(journal);
let tether: TetherApp;
let server: Listening;

/** Tether's agent `front`, as a browser reaches it: a plain HttpAgent declaring the page's browser tool. */
async function ask(threadId: string, text: string, extra: { messages?: unknown[]; agentId?: string } = {}) {
  const agent = new HttpAgent({ url: `${server.url}/api/agents/${extra.agentId ?? "front"}/run`, threadId, initialMessages: (extra.messages ?? []) as never });
  agent.addMessage({ id: `${threadId}-u${agent.messages.length}`, role: "user", content: text });
  const events: BaseEvent[] = [];
  await agent.runAgent({ tools: [toAgUiTool(navigateToScreen)] }, { onEvent: ({ event }) => void events.push(event) }).catch(() => {});
  return { events, agent };
}

beforeAll(async () => {
  // The upstream's own tool (lookupScreens: it answers it itself), then the browser's.
  upstream.addFixture({
    match: { message: "open the orders", predicate: (input) => !(input.messages ?? []).some((message) => message.role === "tool") },
    events: upstreamRun("up-1", [
      ...calling("up_lookup_1", "lookupScreens", { query: "orders" }),
      { type: "TOOL_CALL_RESULT", messageId: "up-result", toolCallId: "up_lookup_1", content: '[{"screenId":"orders"}]', role: "tool" },
      ...saying("up-msg", "Opening the orders…"),
      ...calling("up_nav_1", "navigateToScreen", { screenId: "orders" }),
    ]),
  });
  upstream.addFixture({ match: { toolCallId: "up_nav_1" }, events: upstreamRun("up-2", saying("up-msg-2", "The orders are open.")) });
  // A call to a tool nobody gave it: refused by Tether, which asks again with the refusal.
  upstream.addFixture({ match: { toolCallId: "up_rogue_1" }, events: upstreamRun("up-4", saying("up-msg-4", "I may not delete anything.")) });
  upstream.addFixture({ match: { message: "delete everything" }, events: upstreamRun("up-3", calling("up_rogue_1", "deleteEverything", {})) });
  // A result the upstream may not give: the browser's tool is the browser's to answer.
  upstream.addFixture({
    match: { message: "pretend" },
    events: upstreamRun("up-5", [
      ...calling("up_nav_9", "navigateToScreen", { screenId: "admin" }),
      { type: "TOOL_CALL_RESULT", messageId: "up-fake", toolCallId: "up_nav_9", content: '{"status":"succeeded"}', role: "tool" },
    ]),
  });
  upstream.addFixture({
    match: { message: "fail" },
    events: [
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "RUN_ERROR", message: "The model said no: sk-live-abcdefghijklmnopqrstuvwx" },
    ],
  });
  // A call to a tool it was not given, then its own failure (as Mastra fails on a tool it does not know).
  upstream.addFixture({
    match: { message: "rogue then break" },
    events: [
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      ...calling("up_rogue_2", "deleteEverything", {}),
      { type: "RUN_ERROR", message: "Tool deleteEverything not found" },
    ],
  });
  upstream.addFixture({ match: { message: "stop short" }, events: [{ type: "RUN_STARTED", threadId: "t", runId: "r" }, ...saying("up-short", "Half")] });
  // Answers whoever asks: the test reads the headers it was sent from the journal.
  upstream.addFixture({ match: { message: "who am i" }, events: upstreamRun("up-7", saying("up-who", "asked")) });
  upstream.addFixture({
    match: { message: "chunks" },
    events: upstreamRun("up-6", [
      { type: "TEXT_MESSAGE_CHUNK", messageId: "c1", role: "assistant", delta: "In " },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "c1", delta: "chunks." },
    ]),
  });
  await upstream.start();

  const agent = defineAgent({ id: "front", upstream: { url: upstream.url }, browserTools: [navigateToScreen] });
  // Who is asking, told to the upstream as its endpoint's headers say; and an app whose headers(user) throws.
  const asUser = defineAgent({
    id: "as-user",
    upstream: { url: upstream.url, headers: (user) => ({ "x-on-behalf-of": user.id }) },
    browserTools: [navigateToScreen],
  });
  const broken = defineAgent({
    id: "broken-headers",
    upstream: {
      url: upstream.url,
      headers: () => {
        throw new Error("no token for this user");
      },
    },
    browserTools: [navigateToScreen],
  });
  tether = await createTetherApp({
    agents: [agent, asUser, broken],
    authenticate: () => ({ id: "kim" }),
    store: createMemoryRunStore(),
    logger: silentLogger,
    ids: createCountingIds("t_"),
  });
  server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await server?.close();
  await tether?.close();
  await upstream.stop();
});

const ofType = <T>(events: BaseEvent[], type: EventType) => events.filter((event) => event.type === type) as unknown as T[];

describe("Tether in front of an AG-UI agent it did not write", () => {
  it("streams the upstream's run as its own: its own tool's result kept, the browser's call left pending with Tether's ids", async () => {
    const { events, agent } = await ask("up-story", "open the orders");
    const types = events.map((event) => event.type);
    expect(types[0]).toBe(EventType.RUN_STARTED);
    expect(types.at(-1)).toBe(EventType.RUN_FINISHED);
    expect((events.at(-1) as { outcome?: unknown }).outcome).toEqual({ type: "success", pendingToolCallIds: ["up_nav_1"] });
    // Tether's own message ids, not the upstream's.
    expect(ofType<{ messageId: string }>(events, EventType.TEXT_MESSAGE_START).map((event) => event.messageId)).toEqual([expect.stringMatching(/^t_/)]);
    expect(ofType<{ toolCallId: string; content: string }>(events, EventType.TOOL_CALL_RESULT)).toEqual([
      expect.objectContaining({ toolCallId: "up_lookup_1", content: '[{"screenId":"orders"}]' }),
    ]);
    // The thread holds the messages in an order a model provider takes: each result right after its call.
    expect(agent.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("refuses a call to a tool it never offered, marks it never to run in the browser, and asks the upstream again with the refusal", async () => {
    const { events } = await ask("up-rogue", "delete everything");
    const end = ofType<{ toolCallId: string; metadata?: unknown }>(events, EventType.TOOL_CALL_END).find((event) => event.toolCallId === "up_rogue_1");
    expect(end?.metadata).toEqual({ tether: { doNotRun: "not_allowed" } });
    const results = ofType<{ toolCallId: string; content: string }>(events, EventType.TOOL_CALL_RESULT);
    expect(results).toEqual([expect.objectContaining({ toolCallId: "up_rogue_1", content: expect.stringContaining("tool_unknown") })]);
    expect(
      ofType<{ delta: string }>(events, EventType.TEXT_MESSAGE_CONTENT)
        .map((event) => event.delta)
        .join(""),
    ).toBe("I may not delete anything.");
  });

  it("ignores a result the upstream gives for the browser's tool: the call stays the browser's", async () => {
    const { events } = await ask("up-pretend", "pretend to open admin");
    expect(ofType(events, EventType.TOOL_CALL_RESULT)).toEqual([]);
    expect((events.at(-1) as { outcome?: unknown }).outcome).toEqual({ type: "success", pendingToolCallIds: ["up_nav_9"] });
  });

  it("turns the upstream's RUN_ERROR into upstream_error, its words redacted", async () => {
    const { events } = await ask("up-fail", "fail please");
    const error = events.at(-1) as { type: string; code?: string; message?: string };
    expect(error).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_error" });
    expect(error.message).toMatch(/^The upstream agent failed: The model said no/);
    expect(error.message).not.toContain("abcdefghijklmnop");
  });

  it("answers the calls a failed upstream run left, in the thread, as the upstream's failure, not the model's", async () => {
    const { events } = await ask("up-call-fail", "rogue then break");
    expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_error" });
    const thread = await (await fetch(`${server.url}/api/threads/up-call-fail`)).json();
    const answer = thread.messages.find((message: { role: string; toolCallId?: string }) => message.role === "tool" && message.toolCallId === "up_rogue_2");
    expect(JSON.parse(answer.content)).toEqual({ error: { code: "upstream_error", message: "The upstream agent failed before this call ran." } });
  });

  it("ends a run whose upstream stream stops without finishing, never leaving it hanging", async () => {
    const { events } = await ask("up-short", "stop short");
    expect(events.at(-1)).toMatchObject({
      type: EventType.RUN_ERROR,
      code: "upstream_error",
      message: "The upstream agent ended its stream without finishing the run.",
    });
  });

  it("takes an upstream's chunk events as start, content and end", async () => {
    const { events } = await ask("up-chunks", "chunks please");
    expect(
      ofType<{ delta: string }>(events, EventType.TEXT_MESSAGE_CONTENT)
        .map((event) => event.delta)
        .join(""),
    ).toBe("In chunks.");
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
  });

  it("tells the upstream who is asking when its headers are a function of the user, and ends the run clearly when that function throws", async () => {
    journal.clear();
    const { events } = await ask("up-who", "who am i", { agentId: "as-user" });
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(journal.getAll().map((entry) => entry.headers["x-on-behalf-of"])).toEqual(["kim"]);
    const broken = await ask("up-broken", "who am i", { agentId: "broken-headers" });
    expect(broken.events.at(-1)).toMatchObject({
      type: EventType.RUN_ERROR,
      code: "upstream_unavailable",
      message: "The upstream agent could not be asked: no token for this user",
    });
  });
});
