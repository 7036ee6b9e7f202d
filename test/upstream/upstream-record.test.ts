import { AGUIMock, type AGUIEvent } from "@copilotkit/aimock";
import { HttpAgent } from "@ag-ui/client";
import { defineBrowserTool, readRunRecord, toAgUiTool, type RecordUpstreamEvents, type RunRecordDocument } from "@tether-agent/tether/protocol";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

/**
 * A run's record keeps, for each step an upstream AG-UI agent answered, the
 * events that agent sent, as received (before they were read as AG-UI 1.0's),
 * beside the events the run sent: the ones Tether set aside marked with why,
 * redacted like the rest of the record and capped per step. With records off,
 * none are kept. The upstream is aimock's AG-UI endpoint.
 */

const navigateToScreen = defineBrowserTool({
  name: "navigateToScreen",
  kind: "follow-up",
  description: "Opens a screen of the app.",
  parameters: z.object({ screenId: z.string() }),
});

const started: AGUIEvent = { type: "RUN_STARTED", threadId: "upstream-thread", runId: "up" };
const finished: AGUIEvent = { type: "RUN_FINISHED", threadId: "upstream-thread", runId: "up" };
const SECRET = "sk-live-abcdefghijklmnopqrstuvwx";

const upstream = new AGUIMock({ port: 0 });
let recording: TetherApp;
let notRecording: TetherApp;

beforeAll(async () => {
  // Step 2, once the refusal is back (first: the user's message is still the last one): its answer in chunks, a key split across two of them.
  upstream.addFixture({
    match: { toolCallId: "up_rogue" },
    events: [
      started,
      { type: "TEXT_MESSAGE_CHUNK", messageId: "up-m2", role: "assistant", delta: `I may not. Your key: ${SECRET.slice(0, 14)}` },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "up-m2", delta: `${SECRET.slice(14)} is safe.` },
      finished,
    ],
  });
  // Step 1: a call to a tool it was never given (refused, so Tether asks again) and state (taken as the thread's, re-sent).
  upstream.addFixture({
    match: { message: "delete everything" },
    events: [
      started,
      { type: "TOOL_CALL_START", toolCallId: "up_rogue", toolCallName: "deleteEverything", parentMessageId: "up-m1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "up_rogue", delta: "{}" },
      { type: "TOOL_CALL_END", toolCallId: "up_rogue" },
      { type: "STATE_SNAPSHOT", snapshot: { password: "hunter2", note: `token ${SECRET}` } },
      finished,
    ],
  });
  // More events than a step keeps.
  upstream.addFixture({
    match: { message: "talk a lot" },
    events: [
      started,
      { type: "TEXT_MESSAGE_START", messageId: "up-m3", role: "assistant" },
      ...Array.from({ length: 600 }, (): AGUIEvent => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "up-m3", delta: "la " })),
      { type: "TEXT_MESSAGE_END", messageId: "up-m3" },
      finished,
    ],
  });
  // Bigger events than a step keeps: one over an event's cap, then custom events (which Tether sets aside) past the step's.
  upstream.addFixture({
    match: { message: "send big state" },
    events: [
      started,
      { type: "STATE_SNAPSHOT", snapshot: { huge: "h".repeat(40_000) } },
      ...Array.from({ length: 20 }, (_, index): AGUIEvent => ({ type: "CUSTOM", name: "filler", value: { index, filler: "f".repeat(9_000) } })),
      ...text("up-m4", "Done."),
      finished,
    ],
  });
  await upstream.start();

  const app = (records: boolean) =>
    createTetherApp({
      agents: [
        defineAgent({ id: "front", upstream: { url: upstream.url }, browserTools: [navigateToScreen] }),
        // The same upstream as an AbstractAgent: its events are watched as its run() gives them.
        defineAgent({ id: "front-agent", upstream: new HttpAgent({ url: upstream.url }), browserTools: [navigateToScreen] }),
      ],
      authenticate: () => ({ id: "kim" }),
      store: createMemoryRunStore(),
      logger: silentLogger,
      records,
    });
  [recording, notRecording] = await Promise.all([app(true), app(false)]);
});

afterAll(async () => {
  await recording?.close();
  await notRecording?.close();
  await upstream.stop();
});

function text(messageId: string, delta: string): AGUIEvent[] {
  return [
    { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId, delta },
    { type: "TEXT_MESSAGE_END", messageId },
  ];
}

async function run(tether: TetherApp, runId: string, content: string, agentId = "front") {
  const response = await tether.app.request(`/api/agents/${agentId}/run`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      threadId: `thread-${runId}`,
      runId,
      messages: [{ id: `${runId}-u1`, role: "user", content }],
      tools: [toAgUiTool(navigateToScreen)],
      context: [],
      state: {},
      forwardedProps: {},
    }),
  });
  expect(response.status).toBe(200);
  return parseSseFrames(await response.text()).map((frame) => frame.data as { type: string });
}

async function record(runId: string): Promise<RunRecordDocument> {
  const response = await recording.app.request(`/api/runs/${runId}/record`);
  expect(response.status).toBe(200);
  return readRunRecord(await response.json());
}

const types = (upstreamEvents: RecordUpstreamEvents | undefined) => upstreamEvents?.events.map((entry) => entry.type);
/** An event as kept, without the timestamp aimock stamps on each. */
const withoutTimestamp = (event: unknown) => {
  const { timestamp: _timestamp, ...rest } = event as Record<string, unknown>;
  return rest;
};

describe("the upstream's events in the run record", () => {
  it("keeps each step's events as the upstream sent them, beside the events sent, the ones Tether set aside marked", async () => {
    const sent = await run(recording, "rec-story", "delete everything");
    expect(sent.at(-1)).toMatchObject({ type: "RUN_FINISHED" });
    const { modelCalls, output } = await record("rec-story");
    expect(modelCalls.map((call) => call.model.provider)).toEqual(["ag-ui", "ag-ui"]);

    const [first, second] = modelCalls.map((call) => call.upstream);
    expect(types(first)).toEqual(["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "STATE_SNAPSHOT", "RUN_FINISHED"]);
    expect(first).toMatchObject({ received: 6 });
    expect(first).not.toHaveProperty("leftOut");
    expect(withoutTimestamp(first!.events[1]!.event)).toEqual({
      type: "TOOL_CALL_START",
      toolCallId: "up_rogue",
      toolCallName: "deleteEverything",
      parentMessageId: "up-m1",
    });
    // The run's start noted (aimock names a thread of its own); the refused call was taken (and refused), and the state taken, so neither is marked.
    expect(first!.events.map((entry) => entry.ignored)).toEqual([expect.stringMatching(/^it names thread upstream-thread/), ...Array(5).fill(undefined)]);
    expect(withoutTimestamp(first!.events[4]!.event)).toEqual({ type: "STATE_SNAPSHOT", snapshot: { password: "[redacted]", note: "token [redacted]" } });

    // As received: the chunks, not the start, content and end Tether read them as and sent.
    expect(types(second)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_CHUNK", "TEXT_MESSAGE_CHUNK", "RUN_FINISHED"]);
    // Nothing set aside but the run's start, which names aimock's own thread.
    expect(second!.events.slice(1).every((entry) => entry.ignored === undefined)).toBe(true);
    const deltas = second!.events.map((entry) => (entry.event as { delta?: string }).delta ?? "").join("");
    expect(deltas).toContain("I may not. Your key: ");
    expect(deltas).toContain(" is safe.");
    // The key, split across two chunks, is redacted as the text they make.
    expect(JSON.stringify(modelCalls)).not.toMatch(/abcdefghij|klmnopqrst|hunter2/);
    // The state it took is the run's: sent on, and the run's final state, redacted in the record as the events are.
    expect(output.state).toEqual({ password: "[redacted]", note: "token [redacted]" });
    expect(sent).toContainEqual({ type: "STATE_SNAPSHOT", snapshot: { password: "hunter2", note: `token ${SECRET}` } });
    expect(output.events.map((event) => event.type)).toContain("TEXT_MESSAGE_START");
  });

  it("keeps them as an AbstractAgent upstream's run() gives them, too", async () => {
    await run(recording, "rec-agent", "delete everything", "front-agent");
    const { modelCalls } = await record("rec-agent");
    expect(modelCalls.map((call) => types(call.upstream))).toEqual([
      ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "STATE_SNAPSHOT", "RUN_FINISHED"],
      ["RUN_STARTED", "TEXT_MESSAGE_CHUNK", "TEXT_MESSAGE_CHUNK", "RUN_FINISHED"],
    ]);
  });

  it("keeps at most 500 of a step's events and says how many it left out", async () => {
    await run(recording, "rec-count", "talk a lot");
    const upstreamEvents = (await record("rec-count")).modelCalls[0]!.upstream!;
    expect(upstreamEvents.received).toBe(604);
    expect(upstreamEvents.events).toHaveLength(500);
    expect(upstreamEvents.leftOut).toEqual({ count: 104, ignored: 0 });
    expect(types(upstreamEvents)!.slice(0, 3)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]);
  });

  it("cuts an event over 16 KiB and keeps at most 128 KiB of a step's events, counting the set-aside ones it left out", async () => {
    await run(recording, "rec-size", "send big state");
    const document = await record("rec-size");
    const upstreamEvents = document.modelCalls[0]!.upstream!;
    expect(upstreamEvents.received).toBe(26);
    expect(types(upstreamEvents)!.slice(0, 2)).toEqual(["RUN_STARTED", "STATE_SNAPSHOT"]);
    // The big one: its head, length and hash, listed among the record's cuts.
    expect((upstreamEvents.events[1]!.event as { snapshot: unknown }).snapshot).toMatchObject({ huge: { cut: true, length: 40_000 } });
    expect(document.cuts).toContain("/modelCalls/0/upstream/events/1/event/snapshot/huge");
    // 9 KB events fill the rest of the 128 KiB: 14 of the 20 fit, then nothing more is kept (the text and the end neither).
    expect(upstreamEvents.events).toHaveLength(16);
    expect(upstreamEvents.events[1]!.ignored).toBeUndefined();
    expect(upstreamEvents.events.slice(2).every((entry) => entry.ignored === "not part of the conversation")).toBe(true);
    expect(upstreamEvents.leftOut).toEqual({ count: 10, ignored: 6 });
    expect(JSON.stringify(upstreamEvents).length).toBeLessThan(140 * 1024);
    // Read again, from what the first read kept (the run had ended): the same, its cut still listed.
    const again = await record("rec-size");
    expect(again.modelCalls[0]!.upstream).toEqual(upstreamEvents);
    expect(again.cuts).toContain("/modelCalls/0/upstream/events/1/event/snapshot/huge");
  });

  it("keeps none with records off", async () => {
    const sent = await run(notRecording, "rec-off", "delete everything");
    expect(sent.at(-1)?.type).toBe("RUN_FINISHED");
    const facts = await notRecording.store.listFacts("rec-off");
    expect(facts.map((fact) => fact.kind)).not.toContain("upstream-events");
    expect(facts).toEqual([]);
  });
});
