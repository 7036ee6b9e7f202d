import { AGUIMock, type AGUIRunAgentInput } from "@copilotkit/aimock";
import { EventType, HttpAgent, type BaseEvent } from "@ag-ui/client";
import { defineBrowserTool, toAgUiTool } from "@tether-agent/tether/protocol";
import { createCountingIds } from "@tether-agent/tether/testing";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, defineTool, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { listen, type Listening } from "@tether-agent/tether/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { calling, saying, upstreamRun } from "./aimock-events.ts";

/**
 * Approvals in front of an upstream agent: Tether's config names the calls a
 * person approves first. The upstream's own tool that it leaves for its client
 * (closeRequest here) is held, asked, and answered back upstream with the
 * person's decision; a browser tool is held and then sent to the browser.
 */

const navigateToScreen = defineBrowserTool({
  name: "navigateToScreen",
  description: "Opens a screen of the app.",
  parameters: z.object({ screenId: z.string() }),
  // Only the admin screen needs a person's yes.
  needsApproval: ({ screenId }) => screenId === "admin",
});

const upstream = new AGUIMock({ port: 0 });
// Every input the upstream was sent, in order.
const inputs: AGUIRunAgentInput[] = [];
const store = createMemoryRunStore();
let tether: TetherApp;
let server: Listening;

/** The tool message the upstream was last sent for a call: what Tether answered on the person's behalf. */
const answerSent = (toolCallId: string) => {
  const found = inputs.flatMap((input) => input.messages ?? []).find((message) => message.role === "tool" && message.toolCallId === toolCallId);
  return typeof found?.content === "string" ? JSON.parse(found.content) : undefined;
};

async function turn(agent: HttpAgent, parameters: Record<string, unknown> = {}) {
  const events: BaseEvent[] = [];
  await agent.runAgent({ tools: [toAgUiTool(navigateToScreen)], ...parameters }, { onEvent: ({ event }) => void events.push(event) }).catch(() => {});
  return events;
}
function start(threadId: string, content: string) {
  const agent = new HttpAgent({ url: `${server.url}/api/agents/front/run`, threadId });
  agent.addMessage({ id: `${threadId}-u1`, role: "user", content });
  return agent;
}
const outcome = (events: BaseEvent[]) =>
  (events.at(-1) as { outcome?: { type: string; interrupts?: Array<{ id: string; toolCallId: string; message?: string }> } }).outcome;
const spoken = (events: BaseEvent[]) =>
  events
    .filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => (event as unknown as { delta: string }).delta)
    .join("");
const endOf = (events: BaseEvent[], toolCallId: string) =>
  events.find((event) => event.type === EventType.TOOL_CALL_END && (event as unknown as { toolCallId: string }).toolCallId === toolCallId);

beforeAll(async () => {
  const answered = (toolCallId: string) => (input: AGUIRunAgentInput) => {
    inputs.push(input);
    return (input.messages ?? []).some((message) => message.role === "tool" && message.toolCallId === toolCallId);
  };
  // Checked first: once a call is answered, the upstream carries on.
  upstream.addFixture({ match: { predicate: answered("up_close_1") }, events: upstreamRun("up-2", saying("up-2m", "Done as you said.")) });
  upstream.addFixture({ match: { predicate: answered("up_close_2") }, events: upstreamRun("up-4", saying("up-4m", "Closed as a duplicate.")) });
  upstream.addFixture({ match: { predicate: answered("up_close_3") }, events: upstreamRun("up-6", saying("up-6m", "Left open.")) });
  upstream.addFixture({ match: { predicate: answered("up_nav_1") }, events: upstreamRun("up-8", saying("up-8m", "The admin screen is open.")) });
  // The upstream leaves its own closeRequest for its client to answer: that is where Tether holds it.
  upstream.addFixture({
    match: { message: "close R-1 as fixed" },
    events: upstreamRun("up-1", calling("up_close_1", "closeRequest", { id: "R-1", resolution: "fixed" })),
  });
  upstream.addFixture({
    match: { message: "close R-2 as duplicate" },
    events: upstreamRun("up-3", calling("up_close_2", "closeRequest", { id: "R-2", resolution: "duplicate" })),
  });
  upstream.addFixture({
    match: { message: "close R-3 as fixed" },
    events: upstreamRun("up-5", calling("up_close_3", "closeRequest", { id: "R-3", resolution: "fixed" })),
  });
  upstream.addFixture({ match: { message: "open admin" }, events: upstreamRun("up-7", calling("up_nav_1", "navigateToScreen", { screenId: "admin" })) });
  // An upstream that runs the held tool itself, in the same stream: nothing can stop it; the log says so.
  upstream.addFixture({
    match: { message: "close R-4 without asking" },
    events: upstreamRun("up-9", [
      ...calling("up_close_4", "closeRequest", { id: "R-4", resolution: "fixed" }),
      { type: "TOOL_CALL_RESULT", messageId: "up-9r", toolCallId: "up_close_4", content: '{"closed":true}', role: "tool" },
      ...saying("up-9m", "Closed R-4."),
    ]),
  });
  await upstream.start();

  const agent = defineAgent({
    id: "front",
    upstream: { url: upstream.url },
    browserTools: [navigateToScreen],
    approvals: {
      closeRequest: {
        when: (args: { resolution?: string }) => args.resolution !== "duplicate",
        message: (args: { id: string; resolution: string }) => `Close ${args.id} as ${args.resolution}?`,
      },
    },
  });
  tether = await createTetherApp({
    agents: [agent],
    authenticate: () => ({ id: "kim" }),
    store,
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

describe("approvals of an upstream agent's calls, named in Tether's config", () => {
  it("holds the upstream's own call, asks the person, and sends the approval back upstream as the call's result", async () => {
    const agent = start("ap-1", "close R-1 as fixed");
    const asked = await turn(agent);
    expect(endOf(asked, "up_close_1")).toMatchObject({ metadata: { tether: { doNotRun: "upstream" } } });
    const held = outcome(asked)!;
    expect(held).toMatchObject({ type: "interrupt", interrupts: [{ toolCallId: "up_close_1", reason: "tool_approval", message: "Close R-1 as fixed?" }] });
    // Tether offered the upstream the tools it answers, not the upstream's own.
    expect((inputs.at(-1)!.tools ?? []).map((tool) => tool.name)).toEqual(["navigateToScreen"]);

    const approved = await turn(agent, { resume: [{ interruptId: held.interrupts![0]!.id, status: "resolved", payload: { approved: true, comment: "ok" } }] });
    expect(answerSent("up_close_1")).toEqual({
      status: "approved",
      message: "The user approved closeRequest; go ahead with these arguments.",
      arguments: { id: "R-1", resolution: "fixed" },
      comment: "ok",
    });
    expect(spoken(approved)).toBe("Done as you said.");
    expect(outcome(approved)).toEqual({ type: "success" });
  });

  it("lets a call the predicate does not pick go on at once, answered upstream without asking", async () => {
    const events = await turn(start("ap-2", "close R-2 as duplicate"));
    expect(answerSent("up_close_2")).toMatchObject({ status: "approved", message: "closeRequest needs no approval with these arguments; go ahead." });
    expect(spoken(events)).toBe("Closed as a duplicate.");
    expect(outcome(events)).toEqual({ type: "success" });
  });

  it("sends a rejection back upstream, and nothing is carried out", async () => {
    const agent = start("ap-3", "close R-3 as fixed");
    const held = outcome(await turn(agent))!;
    const rejected = await turn(agent, { resume: [{ interruptId: held.interrupts![0]!.id, status: "resolved", payload: { approved: false } }] });
    expect(answerSent("up_close_3")).toEqual({ status: "rejected", message: "The user rejected closeRequest; it did not run." });
    expect(spoken(rejected)).toBe("Left open.");
  });

  it("holds a browser call the tool's predicate picks, and sends it to the browser once approved", async () => {
    const agent = start("ap-4", "open admin");
    const asked = await turn(agent);
    expect(endOf(asked, "up_nav_1")).toMatchObject({ metadata: { tether: { awaitsApproval: true } } });
    const held = outcome(asked)!;
    const approved = await turn(agent, { resume: [{ interruptId: held.interrupts![0]!.id, status: "resolved", payload: { approved: true } }] });
    expect(outcome(approved)).toEqual({ type: "success", pendingToolCallIds: ["up_nav_1"] });
    agent.addMessage({ id: "ap-4-t1", role: "tool", toolCallId: "up_nav_1", content: '{"status":"succeeded"}' });
    expect(spoken(await turn(agent))).toBe("The admin screen is open.");
  });

  it("keeps the result of a held call the upstream ran itself, and warns in the run's log that nobody was asked", async () => {
    const events = await turn(start("ap-5", "close R-4 without asking"));
    expect(outcome(events)).toEqual({ type: "success" });
    const runId = (events[0] as unknown as { runId: string }).runId;
    await expect
      .poll(async () => (await store.getRun(runId))?.log.filter((entry) => entry.code === "approval_bypassed"))
      .toEqual([expect.objectContaining({ level: "warn", details: { tool: "closeRequest", toolCallId: "up_close_4" } })]);
  });
});

describe("approvals by name, checked at definition", () => {
  const model = { specificationVersion: "v3", provider: "p", modelId: "m", doStream: async () => ({}) } as never;
  it("refuses them on an agent Tether runs: its tools say it themselves", () => {
    expect(() => defineAgent({ id: "own", model, approvals: { closeRequest: true } })).toThrow(/approvals by name, which are for an upstream/);
  });
  it("refuses them on the agent's own server tool", () => {
    const lookup = defineTool({ name: "lookup", description: "Looks.", parameters: z.object({}), execute: async () => "x" });
    expect(() => defineAgent({ id: "up", upstream: { url: "http://127.0.0.1:1/" }, tools: [lookup], approvals: { lookup: true } })).toThrow(
      /its own server tool/,
    );
  });
  it("refuses a form it does not take", () => {
    expect(() => defineAgent({ id: "up", upstream: { url: "http://127.0.0.1:1/" }, approvals: { closeRequest: "yes" as never } })).toThrow(
      /must be true, a predicate/,
    );
  });
});
