import { LLMock } from "@copilotkit/aimock";
import { EventType, HttpAgent, type BaseEvent, type Message, type RunAgentParameters } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { listen, type Listening } from "@tether-agent/tether/node";
import { parseSseFrames, readSseFrames, type SseFrame } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { ASK, UPSTREAM_STORY, addUpstreamStoryFixtures } from "../fixtures/upstream-story.ts";
import { argumentsOf, callEnd, callNamed, finished, resultOf, spoken } from "../helpers/run-events.ts";
import { installUpstream, startUpstream, type InstalledUpstream, type UpstreamFixture, type UpstreamProcess } from "../helpers/upstream-process.ts";
import { startUpstreamTap, type UpstreamTap } from "../providers/upstream-tap.ts";

/**
 * Tether in front of AG-UI agent servers it did not write, from the npm
 * registry: CopilotKit's BuiltInAgent and a Mastra agent through AG-UI's
 * Mastra adapter (test/fixtures/upstreams/, each installed from its lockfile
 * and run as a process of its own). Each agent holds lookupScreens and talks
 * to aimock's OpenAI endpoint through a tap; Tether reaches it through
 * another tap, so a test sees every model call and every upstream run, and
 * whether its caller hung up. Every case is played against both.
 */

// Both installs start at once, before either describe: each waits for its own.
const installs = new Map<UpstreamFixture, Promise<InstalledUpstream>>();
beforeAll(() => {
  for (const name of ["copilotkit", "mastra"] as const) {
    const installing = installUpstream(name);
    installing.catch(() => {}); // its describe reports the failure
    installs.set(name, installing);
  }
});

const tools = [toAgUiTool(navigateToScreen)];
const outcome = JSON.stringify({ status: "succeeded", stage: "displayed" });
const json = { "Content-Type": "application/json", Accept: "text/event-stream" };

/** What an upstream does of its own accord, where it decides what Tether can do. */
interface Quirks {
  /** Hanging up on it stops its model call (else the call runs on: its adapter cannot abort). */
  abortsModelCall: boolean;
  /** A model's call to a tool it was not given: left to Tether (which refuses it and asks again), or failing its own run. */
  unknownTool: "left-to-tether" | "fails-its-run";
}

function describeUpstream(name: UpstreamFixture, title: string, quirks: Quirks) {
  describe(title, () => {
    let installed: InstalledUpstream;
    let mock: LLMock;
    let modelTap: UpstreamTap;
    let agentTap: UpstreamTap;
    let upstream: UpstreamProcess;
    let doomed: UpstreamProcess;
    let tether: TetherApp;
    let server: Listening;

    beforeAll(async () => {
      installed = await installs.get(name)!;
      mock = new LLMock({ port: 0 });
      addUpstreamStoryFixtures(mock);
      await mock.start();
      modelTap = await startUpstreamTap(mock.url);
      [upstream, doomed] = await Promise.all([startUpstream(installed.dir, `${modelTap.url}/v1`), startUpstream(installed.dir, `${modelTap.url}/v1`)]);
      const path = new URL(upstream.url).pathname;
      agentTap = await startUpstreamTap(upstream.url);
      const through = `${agentTap.url}${path}`;
      tether = await createTetherApp({
        agents: [
          defineAgent({ id: "front", upstream: { url: through }, browserTools: [navigateToScreen] }),
          defineAgent({ id: "approving", upstream: { url: through }, browserTools: [{ ...navigateToScreen, needsApproval: true }] }),
          // Bounded, so a kill Tether failed to see would fail the test, not hang it.
          defineAgent({ id: "doomed", upstream: { url: doomed.url, firstEventTimeoutMs: 10_000, idleTimeoutMs: 10_000 }, browserTools: [navigateToScreen] }),
        ],
        authenticate: () => ({ id: "kim" }),
        store: createMemoryRunStore(),
        logger: silentLogger,
      });
      server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
    }, 300_000);

    afterAll(async () => {
      await server?.close();
      await tether?.close();
      await Promise.all([upstream?.stop(), doomed?.stop()]);
      await agentTap?.close();
      await modelTap?.close();
      await mock?.stop();
      installed?.remove();
    }, 60_000);

    const agentFor = (agentId: string, threadId: string) => new HttpAgent({ url: `${server.url}/api/agents/${agentId}/run`, threadId });
    /** The model calls of one case, told apart by the words its user spoke last. */
    const modelCalls = (ask: string) => modelTap.exchanges.filter((exchange) => lastUserText(exchange.body) === ask);
    /** The upstream runs Tether asked for in one thread, with what each sent. */
    const upstreamRuns = (threadId: string) => agentTap.exchanges.filter((exchange) => parse(exchange.body)?.threadId === threadId);
    const post = (agentId: string, body: object) =>
      fetch(`${server.url}/api/agents/${agentId}/run`, { method: "POST", headers: json, body: JSON.stringify(body) });
    const input = (threadId: string, runId: string, messages: unknown[]) => ({ threadId, runId, messages, tools, context: [], state: {}, forwardedProps: {} });

    it("plays the two-turn story: the upstream's lookupScreens runs there, navigateToScreen waits for the browser, whose outcome brings the answer", async () => {
      const threadId = `${name}-story`;
      const agent = agentFor("front", threadId);
      agent.addMessage({ id: `${threadId}-u1`, role: "user", content: ASK.story });
      const first = await turn(agent);
      expect(resultOf(first, "call_lookup_1")).toContain("MNU-3120");
      const navigate = callNamed(first, "navigateToScreen");
      expect(JSON.parse(argumentsOf(first, navigate))).toEqual(UPSTREAM_STORY.navigateArguments);
      expect(finished(first)).toEqual({ type: "success", pendingToolCallIds: [navigate] });
      expect(spoken(first)).toBe(UPSTREAM_STORY.opening);

      agent.addMessage({ id: `${threadId}-t1`, role: "tool", toolCallId: navigate, content: outcome });
      const second = await turn(agent);
      expect(spoken(second)).toBe(UPSTREAM_STORY.opened);
      expect(finished(second)).toEqual({ type: "success" });
      // Two upstream runs; the second carried the browser's outcome as the tool message, last.
      const runs = upstreamRuns(threadId);
      expect(runs).toHaveLength(2);
      expect(parse(runs[1]!.body).messages.at(-1)).toMatchObject({ role: "tool", toolCallId: navigate, content: outcome });
      // The model's last call had the thread as it happened, each result right after its call.
      const calls = modelCalls(ASK.story);
      expect(calls).toHaveLength(3);
      expect(parse(calls[2]!.body).messages.map((message: { role: string }) => message.role)).toEqual([
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
      ]);
    });

    it("refuses a call to a tool that is neither the upstream's nor allow-listed: marked never to run, never the browser's", async () => {
      const threadId = `${name}-refused`;
      const agent = agentFor("front", threadId);
      agent.addMessage({ id: `${threadId}-u1`, role: "user", content: ASK.refused });
      const events = await turn(agent);
      const end = callEnd(events, "call_rogue_1");
      expect(end).toMatchObject({ metadata: { tether: { doNotRun: "not_allowed" } } });
      expect(JSON.stringify(events.at(-1))).not.toContain("pendingToolCallIds");
      expect((await (await fetch(`${server.url}/api/threads/${threadId}`)).json()).pendingToolCalls).toEqual([]);
      if (quirks.unknownTool === "left-to-tether") {
        // Tether answered it, and asked the upstream again with its refusal as the tool message.
        expect(resultOf(events, "call_rogue_1")).toContain("tool_unknown");
        expect(finished(events)).toEqual({ type: "success" });
        expect(spoken(events)).toContain(UPSTREAM_STORY.refused);
        const runs = upstreamRuns(threadId);
        expect(runs).toHaveLength(2);
        expect(parse(runs[1]!.body).messages.at(-1)).toMatchObject({
          role: "tool",
          toolCallId: "call_rogue_1",
          content: expect.stringContaining("tool_unknown"),
        });
      } else {
        // The upstream failed its own run on the call before Tether could answer it: the run ends in Tether's words.
        expect(events.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_error", message: expect.stringContaining("deleteEverything") });
        expect(upstreamRuns(threadId)).toHaveLength(1);
      }
      // The refused call is closed in the thread: the next turn goes up with a history a model takes.
      agent.addMessage({ id: `${threadId}-u2`, role: "user", content: ASK.next });
      expect(spoken(await turn(agent))).toBe(UPSTREAM_STORY.hello);
    });

    it("holds a browser call that needs approval: the run ends with the interrupt, the approval sends it to the browser, its outcome brings the answer", async () => {
      const threadId = `${name}-approval`;
      const agent = agentFor("approving", threadId);
      agent.addMessage({ id: `${threadId}-u1`, role: "user", content: ASK.approval });
      const asked = await turn(agent);
      const navigate = callNamed(asked, "navigateToScreen");
      const end = callEnd(asked, navigate);
      expect(end).toMatchObject({ metadata: { tether: { awaitsApproval: true } } });
      const held = finished(asked) as { type: string; interrupts: Array<{ id: string; toolCallId: string }> };
      expect(held).toMatchObject({ type: "interrupt", interrupts: [{ toolCallId: navigate, reason: "tool_approval" }] });

      const approved = await turn(agent, { resume: [{ interruptId: held.interrupts[0]!.id, status: "resolved", payload: { approved: true } }] });
      expect(finished(approved)).toEqual({ type: "success", pendingToolCallIds: [navigate] });
      // Approving is Tether's business: the upstream was not asked.
      expect(upstreamRuns(threadId)).toHaveLength(1);

      agent.addMessage({ id: `${threadId}-t1`, role: "tool", toolCallId: navigate, content: outcome });
      const answered = await turn(agent);
      expect(spoken(answered)).toBe(UPSTREAM_STORY.opened);
      expect(upstreamRuns(threadId)).toHaveLength(2);
      expect(modelCalls(ASK.approval)).toHaveLength(3);
    });

    it("replays a reconnect mid-run with Last-Event-ID from its own log, and asks the upstream nothing again", async () => {
      const threadId = `${name}-reconnect`;
      const stream = readSseFrames(await post("front", input(threadId, `${threadId}-r1`, [{ id: `${threadId}-u1`, role: "user", content: ASK.reconnect }])));
      const before = await untilSpoken(stream);
      await stream.cancel();
      const response = await fetch(`${server.url}/api/threads/${threadId}/events`, { headers: { "Last-Event-ID": before.at(-1)!.id! } });
      const after = await readSseFrames(response).all();
      const frames = [...before, ...after];
      expect(frames.map((frame) => sequence(frame))).toEqual(frames.map((_, index) => index + 1));
      expect(after.at(-1)!.data).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "success" } });
      expect(spoken(frames.map((frame) => frame.data))).toBe(UPSTREAM_STORY.slowAnswer);
      // One upstream run, read to its end although the client went away; one model call.
      const runs = upstreamRuns(threadId);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ completed: true, abortedByCaller: false });
      expect(modelCalls(ASK.reconnect)).toHaveLength(1);
    });

    it("continues once when the browser sends the same outcome twice", async () => {
      const threadId = `${name}-duplicate`;
      const agent = agentFor("front", threadId);
      agent.addMessage({ id: `${threadId}-u1`, role: "user", content: ASK.duplicate });
      const navigate = callNamed(await turn(agent), "navigateToScreen");
      const answer: Message = { id: `${threadId}-t1`, role: "tool", toolCallId: navigate, content: outcome };
      const again = async (runId: string) => {
        const response = await post("front", input(threadId, runId, [...agent.messages, answer]));
        return { status: response.status, body: await response.text() };
      };
      // Two at once (two tabs), then once more (a retry after a reload).
      const together = await Promise.all([again(`${threadId}-r2`), again(`${threadId}-r3`)]);
      const later = await again(`${threadId}-r4`);
      // One of the two runs; the other follows that run (live, or from its log had it come a moment later): the same events.
      expect(together[0]!.status).toBe(200);
      for (const response of [together[1], later]) expect(response).toEqual(together[0]);
      expect(spoken(parseSseFrames(together[0]!.body).map((frame) => frame.data))).toBe(UPSTREAM_STORY.opened);
      expect(upstreamRuns(threadId)).toHaveLength(2);
      expect(modelCalls(ASK.duplicate)).toHaveLength(3);
    });

    it("cancels mid-stream: the run ends cancelled and the upstream request is aborted", async () => {
      const threadId = `${name}-cancel`;
      const runId = `${threadId}-r1`;
      const stream = readSseFrames(await post("front", input(threadId, runId, [{ id: `${threadId}-u1`, role: "user", content: ASK.cancel }])));
      await untilSpoken(stream);
      const cancelled = await fetch(`${server.url}/api/runs/${runId}/cancel`, { method: "POST", headers: json, body: "{}" });
      expect(cancelled.status).toBe(202);
      const frames = await stream.all();
      expect(frames.at(-1)!.data).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "cancelled" } });
      const [run] = upstreamRuns(threadId);
      await run!.ended;
      expect(run!.abortedByCaller).toBe(true);
      if (quirks.abortsModelCall) {
        const [call] = modelCalls(ASK.cancel);
        await call!.ended;
        expect(call!.abortedByCaller).toBe(true);
      }
      // The thread goes on.
      const agent = agentFor("front", threadId);
      agent.addMessage({ id: `${threadId}-u2`, role: "user", content: ASK.next });
      expect(spoken(await turn(agent))).toBe(UPSTREAM_STORY.hello);
    });

    it("ends the run with upstream_error when the upstream process is killed mid-stream, and never hangs", async () => {
      const threadId = `${name}-killed`;
      const stream = readSseFrames(await post("doomed", input(threadId, `${threadId}-r1`, [{ id: `${threadId}-u1`, role: "user", content: ASK.killed }])));
      await untilSpoken(stream);
      const killedAt = performance.now();
      await doomed.stop("SIGKILL");
      const frames = await stream.all();
      expect(performance.now() - killedAt).toBeLessThan(3_000);
      expect(frames.at(-1)!.data).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_error" });
      // With the process gone, the next run is told the upstream cannot be reached.
      const next = await readSseFrames(
        await post("doomed", input(`${threadId}-2`, `${threadId}-2-r1`, [{ id: `${threadId}-2-u1`, role: "user", content: ASK.story }])),
      ).all();
      expect(next.at(-1)!.data).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_unavailable" });
    });
  });
}

describeUpstream("copilotkit", "CopilotKit's BuiltInAgent (@copilotkitnext/agent 1.54.1) behind Tether", {
  abortsModelCall: true,
  unknownTool: "left-to-tether",
});
describeUpstream("mastra", "A Mastra agent (@mastra/core 0.24.9, @ag-ui/mastra 0.2.4) behind Tether", {
  abortsModelCall: false,
  unknownTool: "fails-its-run",
});

/** One run of a browser-side HttpAgent: every event it saw (a failed run's too). */
async function turn(agent: HttpAgent, parameters: RunAgentParameters = {}): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await agent.runAgent({ tools, ...parameters }, { onEvent: ({ event }) => void events.push(event) }).catch(() => {});
  return events;
}

/** Reads until the run has said something (the upstream is mid-stream). */
async function untilSpoken(stream: ReturnType<typeof readSseFrames>): Promise<SseFrame[]> {
  for (let count = 1; ; count++) {
    const seen = await stream.until(count);
    if (seen.length < count) throw new Error(`the stream ended before any text: ${JSON.stringify(seen.map((frame) => frame.data))}`);
    if (seen.some((frame) => frame.data.type === EventType.TEXT_MESSAGE_CONTENT)) return seen;
  }
}

const sequence = (frame: SseFrame) => Number(frame.id!.slice(frame.id!.lastIndexOf(":") + 1));
const parse = (body: string) => {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
};

function lastUserText(body: string): string | undefined {
  const user = (parse(body)?.messages as Array<{ role: string; content: unknown }> | undefined)?.findLast((message) => message.role === "user");
  if (!user) return undefined;
  return typeof user.content === "string" ? user.content : (user.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("");
}
