import { EventType, type Event } from "@ag-ui/core";
import { describe, expect, it, vi } from "vitest";
import { createRunEventReader, type RunEnd } from "./run-event-reader.ts";
import { RUN, THREAD, call, ev, page } from "../../../test/fixtures/tool-runner-page.ts";

/** A page's runner and journal, read through the session's reader. */
function reader() {
  const p = page();
  const started: string[] = [];
  const ends: RunEnd[] = [];
  const read = createRunEventReader({
    journal: p.journal,
    runner: p.runner,
    onRunStarted: (runId) => started.push(runId),
    onRunEnded: (end) => ends.push(end),
  });
  const feed = (events: Event[], live = true) => events.forEach((event) => read(event, live));
  return { ...p, started, ends, feed };
}

const finished = (outcome?: unknown, runId = RUN): Event =>
  ({ type: EventType.RUN_FINISHED, threadId: THREAD, runId, ...(outcome ? { outcome } : {}) }) as Event;

describe("createRunEventReader", () => {
  it("gives every event the id of the run it belongs to, and acts on a live run's browser calls at their END", () => {
    const r = reader();
    r.feed([ev.runStarted("run-7"), ...call("a", { screenId: "MNU-1" })]);
    expect(r.started).toEqual(["run-7"]);
    expect(r.execute).toHaveBeenCalledWith({ screenId: "MNU-1" }, expect.objectContaining({ toolCallId: "a", runId: "run-7" }));
  });

  it("marks a live run as this tab's, and neither owns nor acts on a run it only follows", () => {
    const r = reader();
    r.feed([ev.runStarted("mine"), finished(undefined, "mine")]);
    r.feed([ev.runStarted("theirs"), ...call("b", { screenId: "MNU-1" }), finished(undefined, "theirs")], false);
    expect([r.journal.owns("mine"), r.journal.owns("theirs")]).toEqual([true, false]);
    expect(r.execute).not.toHaveBeenCalled();
    expect(r.runner.activities()).toMatchObject([{ toolCallId: "b", status: "calling" }]);
  });

  it("ends a run with the pending calls its RUN_FINISHED names", () => {
    const r = reader();
    r.feed([ev.runStarted(), ...call("a", { screenId: "MNU-1" }), finished({ type: "success", pendingToolCallIds: ["a"] })]);
    expect(r.ends).toEqual([{ runId: RUN, outcome: "success", pending: ["a"] }]);
  });

  it("without pending ids (a plain AG-UI server), ends a run with the calls it left unanswered, as the reference client does", () => {
    const r = reader();
    r.feed([ev.runStarted(), ...call("s", {}, "lookupScreens"), ev.result("s", "{}"), ...call("a", { screenId: "MNU-1" }), finished()]);
    expect(r.ends).toEqual([{ runId: RUN, outcome: "success", pending: ["a"] }]);
  });

  it("ends a run with an interrupt or a cancel without pending calls", () => {
    const r = reader();
    r.feed([ev.runStarted("r1"), finished({ type: "interrupt", interrupts: [] }, "r1"), ev.runStarted("r2"), finished({ type: "cancelled" }, "r2")]);
    expect(r.ends).toEqual([
      { runId: "r1", outcome: "interrupt", pending: [] },
      { runId: "r2", outcome: "cancelled", pending: [] },
    ]);
  });

  it("ends a run with RUN_ERROR as a TetherError with the event's code", () => {
    const r = reader();
    r.feed([ev.runStarted(), { type: EventType.RUN_ERROR, message: "The model failed.", code: "model_error" } as Event]);
    expect(r.ends).toEqual([
      { runId: RUN, outcome: "error", pending: [], error: expect.objectContaining({ code: "model_error", message: "The model failed." }) },
    ]);
  });

  it("reads each event once: the runner sees it exactly as often as it arrives", () => {
    const r = reader();
    const observe = vi.spyOn(r.runner, "observe");
    const events = [ev.runStarted(), ...call("a", { screenId: "MNU-1" }), finished()];
    r.feed(events);
    expect(observe.mock.calls.map(([event]) => event)).toEqual(events);
  });
});
