import { EventType, type Event } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { createToolCallTracker, type CallChange } from "./tool-call-tracker.ts";
import { RUN, ev } from "../../../test/fixtures/tool-runner-page.ts";

/** Feeds events of one run; returns the changes they made, in order. */
function feed(tracker: ReturnType<typeof createToolCallTracker>, events: Event[], runId = RUN): CallChange[] {
  return events.flatMap((event) => tracker.observe(event, runId) ?? []);
}

const endWith = (toolCallId: string, tether: Record<string, unknown>): Event => ({ type: EventType.TOOL_CALL_END, toolCallId, metadata: { tether } }) as Event;

describe("createToolCallTracker", () => {
  it("joins arguments split mid-string and hands the call over once, at its TOOL_CALL_END", () => {
    const tracker = createToolCallTracker();
    const changes = feed(tracker, [ev.runStarted(), ev.start("a"), ev.args("a", '{"screen'), ev.args("a", 'Id":"MNU-3'), ev.args("a", '120"}'), ev.end("a")]);
    expect(changes.map((change) => change.kind)).toEqual(["started", "ended"]);
    expect(tracker.get("a")).toEqual({
      toolCallId: "a",
      toolName: "navigateToScreen",
      runId: RUN,
      args: '{"screenId":"MNU-3120"}',
      ended: true,
      late: false,
      awaiting: false,
    });
  });

  it("pairs interleaved parallel calls by id, never by order", () => {
    const tracker = createToolCallTracker();
    const changes = feed(tracker, [
      ev.start("a"),
      ev.start("b"),
      ev.args("b", '{"screenId":"MNU-2"}'),
      ev.args("a", '{"screenId":'),
      ev.args("a", '"MNU-1"}'),
      ev.end("b"),
      ev.end("a"),
    ]);
    expect(
      changes.filter((change) => change.kind === "ended").map((change) => (change.kind === "ended" ? [change.call.toolCallId, change.call.args] : [])),
    ).toEqual([
      ["b", '{"screenId":"MNU-2"}'],
      ["a", '{"screenId":"MNU-1"}'],
    ]);
  });

  it("changes nothing for a repeated START or END, ARGS after END, or an END for a call never started", () => {
    const tracker = createToolCallTracker();
    feed(tracker, [ev.start("a"), ev.args("a", "{}"), ev.end("a")]);
    expect(feed(tracker, [ev.start("a", "other"), ev.args("a", "garbage"), ev.end("a"), ev.args("x", "{}"), ev.end("x")])).toEqual([]);
    expect(tracker.get("a")).toMatchObject({ toolName: "navigateToScreen", args: "{}" });
    expect(tracker.get("x")).toBeUndefined();
  });

  it("marks an END late when its run has finished or errored, and not when another run has", () => {
    const tracker = createToolCallTracker();
    feed(tracker, [ev.runStarted("run-1"), ev.start("a"), ev.runFinished("run-1"), ev.end("a")], "run-1");
    feed(tracker, [ev.runStarted("run-2"), ev.start("b"), ev.runError(), ev.end("b")], "run-2");
    feed(tracker, [ev.runStarted("run-3"), ev.start("c"), ev.end("c")], "run-3");
    expect([tracker.get("a")?.late, tracker.get("b")?.late, tracker.get("c")?.late]).toEqual([true, true, false]);
  });

  it("forgets that a run finished when it starts again (a reconnect replays it from RUN_STARTED)", () => {
    const tracker = createToolCallTracker();
    feed(tracker, [ev.runStarted(), ev.runFinished(), ev.runStarted(), ev.start("a"), ev.end("a")]);
    expect(tracker.get("a")?.late).toBe(false);
  });

  it("reads the server's marks on TOOL_CALL_END: held for approval, or closed and never to run", () => {
    const tracker = createToolCallTracker();
    feed(tracker, [
      ev.start("a"),
      endWith("a", { awaitsApproval: true }),
      ev.start("b"),
      endWith("b", { doNotRun: "cancelled" }),
      ev.start("c"),
      endWith("c", { doNotRun: "not_allowed" }),
    ]);
    expect(tracker.get("a")).toMatchObject({ awaiting: true });
    expect(tracker.get("a")?.closedByServer).toBeUndefined();
    expect(tracker.get("b")).toMatchObject({ awaiting: false, closedByServer: "cancelled" });
    expect(tracker.get("c")).toMatchObject({ awaiting: false, closedByServer: "not_allowed" });
  });

  it("notes results, also for calls it never saw start, and lists a run's calls in the order they started", () => {
    const tracker = createToolCallTracker();
    const changes = feed(tracker, [ev.start("a"), ev.start("b"), ev.end("a"), ev.end("b"), ev.result("b", "{}"), ev.result("zz", "{}")]);
    expect(changes.filter((change) => change.kind === "answered")).toEqual([
      { kind: "answered", toolCallId: "b", content: "{}", call: expect.objectContaining({ toolCallId: "b", answered: true }) },
      { kind: "answered", toolCallId: "zz", content: "{}", call: undefined },
    ]);
    feed(tracker, [ev.start("c")], "run-2");
    expect(tracker.callsOf(RUN).map((call) => [call.toolCallId, !!call.answered])).toEqual([
      ["a", false],
      ["b", true],
    ]);
  });

  it("restores a call from history as complete", () => {
    const tracker = createToolCallTracker();
    tracker.restore({ toolCallId: "a", toolName: "navigateToScreen", runId: RUN, args: '{"screenId":"MNU-1"}' });
    expect(tracker.get("a")).toEqual({ toolCallId: "a", toolName: "navigateToScreen", runId: RUN, args: '{"screenId":"MNU-1"}', ended: true });
    expect(feed(tracker, [ev.start("a"), ev.end("a")])).toEqual([]);
  });
});
