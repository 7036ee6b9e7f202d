import { EventType, type BaseEvent } from "@ag-ui/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callEnd, resultOf, spoken } from "../helpers/run-events.ts";
import { ask, callEvents, lastEvent, serverCalls, startHostile, textEvents, upstreamRun, verified, type Hostile, type Scenario } from "./hostile-harness.ts";

/**
 * A hostile upstream's tool calls: ids used twice or taken from the thread,
 * results it may not give or gives twice, calls to tools it was not given,
 * named like Tether's own, or with arguments that are not what the tool
 * takes. None of them runs anything it should not, none reaches the browser
 * as runnable, and the thread never holds one id twice.
 */

/** The first answer, then `then` once Tether has asked again with tool results. */
const twoSteps =
  (first: Scenario, then: Scenario = upstreamRun(...textEvents("after", "Understood."))): Scenario =>
  (response, input, request) =>
    (input.messages.some((message) => message.role === "tool") ? then : first)(response, input, request);

const navigate = (toolCallId: string, args = '{"screenId":"orders"}') => callEvents(toolCallId, "navigateToScreen", args);
const ownResult = (toolCallId: string, content: string) => ({ type: "TOOL_CALL_RESULT", messageId: `r-${content}`, toolCallId, content, role: "tool" });
const starts = (events: BaseEvent[]) =>
  events.filter((event) => event.type === EventType.TOOL_CALL_START) as Array<BaseEvent & { toolCallId: string; toolCallName: string }>;
const ids = (messages: Array<{ id: string; toolCalls?: Array<{ id: string }> }>) => [
  ...messages.map((message) => message.id),
  ...messages.flatMap((message) => (message.toolCalls ?? []).map((call) => call.id)),
];

let hostile: Hostile;

beforeAll(async () => {
  hostile = await startHostile({
    "started twice": upstreamRun(...navigate("c1"), ...callEvents("c1", "lookupRecord", '{"id":"twice"}')),
    "thread collision": twoSteps(
      upstreamRun(...callEvents("dup", "searchWeb", '{"q":"orders"}'), ownResult("dup", "found"), ...callEvents("srv", "lookupRecord", '{"id":"r0"}')),
      upstreamRun(...navigate("dup")),
    ),
    "message id reuse": upstreamRun(...textEvents("message-id-reuse-u1", "Same id as yours.")),
    "result twice": upstreamRun(...callEvents("own1", "searchWeb", "{}"), ownResult("own1", "first"), ownResult("own1", "second"), ...textEvents("m", "Done.")),
    "browser result": upstreamRun(...navigate("nav1"), ownResult("nav1", '{"status":"succeeded"}')),
    "not given": twoSteps(upstreamRun(...callEvents("rogue", "deleteEverything", "{}"))),
    "server collision": twoSteps(upstreamRun(...callEvents("col", "lookupRecord", '{"id":"r1"}'), ownResult("col", "fake"))),
    "args not json": twoSteps(upstreamRun(...navigate("bad1", '{"screenId": '))),
    "args off schema": twoSteps(upstreamRun(...navigate("bad2", '{"screenId": 5}'))),
    "long id": upstreamRun(...navigate("x".repeat(10_000))),
  });
});

afterAll(() => hostile?.close());

describe("an upstream whose tool calls collide", () => {
  it("keeps the first of two TOOL_CALL_STARTs with one id and ignores the second, with its arguments", async () => {
    const asked = await ask(hostile, "started-twice", "started twice");
    expect(starts(asked.events).map((event) => event.toolCallName)).toEqual(["navigateToScreen"]);
    expect(asked.pendingToolCallIds).toEqual(["c1"]);
    expect(serverCalls).not.toContainEqual({ id: "twice" });
    await verified(asked.events);
  });

  it("gives a call whose id the thread already holds an id of its own, and pairs the call's result by the upstream's id", async () => {
    const asked = await ask(hostile, "thread-collision", "thread collision");
    const calls = starts(asked.events);
    expect(calls.map((event) => event.toolCallId)).toEqual(["dup", "srv", expect.not.stringMatching(/^dup$/)]);
    expect(asked.pendingToolCallIds).toEqual([calls[2]!.toolCallId]);
    expect(new Set(ids(asked.messages)).size).toBe(ids(asked.messages).length);
    await verified(asked.events);
  });

  it("never uses the upstream's message ids: one the thread holds stays the user's", async () => {
    const asked = await ask(hostile, "message-id-reuse", "message id reuse");
    expect(asked.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(new Set(ids(asked.messages)).size).toBe(2);
    expect(spoken(asked.events)).toBe("Same id as yours.");
  });

  it("keeps the first result of its own tool and ignores a second one", async () => {
    const asked = await ask(hostile, "result-twice", "result twice");
    expect(asked.messages.filter((message) => message.role === "tool").map((message) => message.content)).toEqual(["first"]);
    expect(hostile.logs.get("result-twice-r1")?.join("\n")).toContain("a second result for tool call own1");
    await verified(asked.events);
  });

  it("ignores its result for a browser tool's call: the browser answers it", async () => {
    const asked = await ask(hostile, "browser-result", "browser result");
    expect(resultOf(asked.events, "nav1")).toBeUndefined();
    expect(asked.pendingToolCallIds).toEqual(["nav1"]);
  });
});

describe("an upstream's calls to tools it was not given", () => {
  it("refuses a call to a tool nobody gave it: marked never to run, answered, not left to the browser", async () => {
    const asked = await ask(hostile, "not-given", "not given");
    expect(callEnd(asked.events, "rogue")).toMatchObject({ metadata: { tether: { doNotRun: "not_allowed" } } });
    expect(resultOf(asked.events, "rogue")).toMatch(/tool_unknown/);
    expect(asked.pendingToolCallIds).toEqual([]);
    expect(spoken(asked.events)).toBe("Understood.");
  });

  it("runs Tether's own server tool for a call named like it, and ignores the result the upstream made up", async () => {
    const asked = await ask(hostile, "server-collision", "server collision");
    expect(serverCalls).toContainEqual({ id: "r1" });
    expect(resultOf(asked.events, "col")).toBe('{"found":"r1"}');
    expect(JSON.stringify(asked.messages)).not.toContain("fake");
  });

  it("refuses a browser call whose arguments are not JSON: marked never to run before the browser could", async () => {
    const asked = await ask(hostile, "args-not-json", "args not json");
    expect(callEnd(asked.events, "bad1")).toMatchObject({ metadata: { tether: { doNotRun: "invalid_arguments" } } });
    expect(resultOf(asked.events, "bad1")).toMatch(/not valid JSON/);
    expect(asked.pendingToolCallIds).toEqual([]);
  });

  it("refuses a browser call whose arguments fail the allow-listed schema, the same way", async () => {
    const asked = await ask(hostile, "args-off-schema", "args off schema");
    expect(callEnd(asked.events, "bad2")).toMatchObject({ metadata: { tether: { doNotRun: "invalid_arguments" } } });
    expect(resultOf(asked.events, "bad2")).toMatch(/do not match its schema/);
    expect(asked.pendingToolCallIds).toEqual([]);
  });

  it("ends the run on a tool call id no agent would make (10,000 characters), before anything of it is stored", async () => {
    const asked = await ask(hostile, "long-id", "long id");
    expect(lastEvent(asked)).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_error", message: expect.stringMatching(/toolCallId.*256/) });
    expect(JSON.stringify(asked.messages)).not.toContain("xxxxxxxx");
  });
});
