import { EventType, type RunAgentInput } from "@ag-ui/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callEnd, resultOf, spoken } from "../helpers/run-events.ts";
import {
  ask,
  finishedEvent,
  lastEvent,
  navigateToScreen,
  sse,
  started,
  startHostile,
  textEvents,
  verified,
  type Hostile,
  type Scenario,
} from "./hostile-harness.ts";

/**
 * An upstream that sends too much in one step: text in one huge delta or in
 * a great many small ones, tool-call arguments without end, its own tools'
 * results by the megabyte. The step's caps (`upstream.limits`) end the run
 * with `upstream_error` naming the cap; the event that crosses it is passed
 * on to nobody, and what came before stays as the client saw it, closed.
 */

const deltas = (count: number, size: number) =>
  Array.from({ length: count }, () => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "a".repeat(size) }));
const start = (toolCallId: string) => ({ type: "TOOL_CALL_START", toolCallId, toolCallName: "navigateToScreen" });
// What the upstream was sent on the turn after a call was cut off.
const inputs: RunAgentInput[] = [];
const then: Scenario = (response, input, request) => {
  inputs.push(input);
  void sse(started(), ...textEvents("m", "Fine now."), finishedEvent())(response, input, request);
};

let hostile: Hostile;

beforeAll(async () => {
  hostile = await startHostile(
    {
      "text in thousand-character deltas": sse(started(), { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" }, ...deltas(1_100, 1_000)),
      "one-character deltas": sse(started(), { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" }, ...deltas(2_500, 1)),
      "arguments without end": sse(
        started(),
        start("long"),
        ...Array.from({ length: 300 }, () => ({ type: "TOOL_CALL_ARGS", toolCallId: "long", delta: `{"screenId":"${"s".repeat(1_000)}` })),
      ),
      "huge result": sse(
        started(),
        { type: "TOOL_CALL_START", toolCallId: "own", toolCallName: "searchWeb" },
        { type: "TOOL_CALL_END", toolCallId: "own" },
        { type: "TOOL_CALL_RESULT", messageId: "r", toolCallId: "own", content: "r".repeat(2 * 1024 * 1024) },
      ),
      "events Tether ignores": sse(started(), ...Array.from({ length: 1_500 }, (_, n) => ({ type: "CUSTOM", name: "tick", value: n }))),
      "cut off": sse(
        started(),
        start("cut"),
        { type: "TOOL_CALL_ARGS", toolCallId: "cut", delta: '{"screenId": "ord' },
        { type: "RUN_ERROR", message: "Model died." },
      ),
      "and now?": then,
    },
    {},
    (url) => [
      { id: "capped", upstream: { url, limits: { maxTextChars: 2_000, maxArgumentChars: 1_000 } }, browserTools: [navigateToScreen] },
      { id: "few-events", upstream: { url, limits: { maxEvents: 1_000 } }, browserTools: [navigateToScreen] },
    ],
  );
});

afterAll(() => hostile?.close());

const capped = async (asked: Awaited<ReturnType<typeof ask>>, cap: RegExp) => {
  expect(lastEvent(asked)).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_error", message: expect.stringMatching(cap) });
  await verified(asked.events);
};

describe("an upstream that floods one step", () => {
  it("stops 1.1 MB of text at the 1 MiB text cap, keeping whole deltas only, as the client saw them", async () => {
    const asked = await ask(hostile, "thousands", "text in thousand-character deltas");
    await capped(asked, /more than 1048576 characters of text and tool results in one step \(its upstream\.limits\.maxTextChars cap\)/);
    expect(spoken(asked.events)).toHaveLength(1_048_000);
    expect(asked.messages.at(-1)).toMatchObject({ role: "assistant", content: spoken(asked.events) });
  });

  it("counts a great many one-character deltas against the cap as one text (a cap configured lower)", async () => {
    const asked = await ask(hostile, "ones", "one-character deltas", "capped");
    await capped(asked, /more than 2000 characters of text/);
    expect(spoken(asked.events)).toHaveLength(2_000);
  });

  it("stops tool-call arguments at the 256 KiB cap: the call never ends, never runs, and is answered in the thread", async () => {
    const asked = await ask(hostile, "args", "arguments without end");
    await capped(asked, /more than 262144 characters of tool-call arguments in one step \(its upstream\.limits\.maxArgumentChars cap\)/);
    expect(callEnd(asked.events, "long")).toBeUndefined();
    expect(asked.pendingToolCallIds).toEqual([]);
    expect(asked.messages.find((message) => message.role === "tool")).toMatchObject({ toolCallId: "long", content: expect.stringContaining("upstream_error") });
  });

  it("counts every event against the event cap, those it would only skip too (a cap configured lower)", async () => {
    const asked = await ask(hostile, "ignored-flood", "events Tether ignores", "few-events");
    await capped(asked, /more than 1000 events in one step \(its upstream\.limits\.maxEvents cap\)/);
  });

  it("counts its own tools' results as text: a 2 MB one is never passed on", async () => {
    const asked = await ask(hostile, "huge-result", "huge result");
    await capped(asked, /maxTextChars/);
    expect(resultOf(asked.events, "own")).toBeUndefined();
  });
});

describe("the turn after an upstream broke off a call", () => {
  it("sends the upstream the cut-off call's arguments as JSON, and the call answered, so its provider takes the thread", async () => {
    const first = await ask(hostile, "after-cut", "cut off");
    expect(lastEvent(first)).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_error" });
    const next = await ask(hostile, "after-cut", "and now?", "front", first.messages);
    expect(lastEvent(next)).toMatchObject({ type: EventType.RUN_FINISHED });
    const sent = inputs.at(-1)!.messages;
    const call = sent.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).find((each) => each.id === "cut")!;
    expect(JSON.parse(call.function.arguments)).toEqual({ invalidArguments: '{"screenId": "ord' });
    expect(sent.filter((message) => message.role === "tool" && message.toolCallId === "cut")).toHaveLength(1);
  });
});
