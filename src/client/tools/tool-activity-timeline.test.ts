import { describe, expect, it, vi } from "vitest";
import type { ToolOutcome } from "../../protocol/index.ts";
import { createToolActivityTimeline } from "./tool-activity-timeline.ts";
import { RUN, call, ev, navigateToScreen, page } from "../../../test/fixtures/tool-runner-page.ts";

const a = { toolCallId: "a", toolName: navigateToScreen.name, runId: RUN };
const s = { toolCallId: "s", toolName: "lookupScreens", runId: RUN };

describe("createToolActivityTimeline", () => {
  it("shows a call once: a second calling (a replayed START) does not take it back", () => {
    const onChange = vi.fn();
    const timeline = createToolActivityTimeline(onChange);
    timeline.calling(a, "browser");
    timeline.running(a);
    timeline.calling(a, "browser");
    expect(timeline.list()).toEqual([{ ...a, location: "browser", status: "running" }]);
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it("keeps the order in which calls began", () => {
    const timeline = createToolActivityTimeline(() => {});
    timeline.calling(s, "server");
    timeline.calling(a, "browser");
    timeline.result("s", "{}");
    expect(timeline.list().map((activity) => activity.toolCallId)).toEqual(["s", "a"]);
  });

  it("reads an error result as text or as an object, and anything else as done", () => {
    const timeline = createToolActivityTimeline(() => {});
    for (const id of ["t", "o", "a", "x", "n"]) timeline.calling({ ...s, toolCallId: id }, "server");
    timeline.result("t", JSON.stringify({ error: { message: "No such screen." } }));
    timeline.result("a", JSON.stringify({ error: "Error in tool 'closeThing': the disk is on fire" })); // ADK's shape
    timeline.result("o", { error: { message: "Gone." } });
    timeline.result("x", "not json", "run-2");
    timeline.result("n", JSON.stringify({ error: { code: "no_message" } }));
    timeline.result("unknown", "{}"); // a result for a call never shown is ignored
    expect(timeline.list()).toEqual([
      { ...s, toolCallId: "t", location: "server", status: "error", message: "No such screen." },
      { ...s, toolCallId: "o", location: "server", status: "error", message: "Gone." },
      { ...s, toolCallId: "a", location: "server", status: "error", message: "Error in tool 'closeThing': the disk is on fire" },
      { ...s, toolCallId: "x", runId: "run-2", location: "server", status: "done" },
      { ...s, toolCallId: "n", location: "server", status: "done" },
    ]);
  });

  it("never reads an approval that was not given as done: rejected and cancelled, with the server's words, live and restored", () => {
    const timeline = createToolActivityTimeline(() => {});
    const close = { toolCallId: "c", toolName: "closeWorkRequest", runId: RUN };
    const later = { toolCallId: "l", toolName: "closeWorkRequest", runId: RUN };
    timeline.calling(close, "server");
    timeline.calling(later, "server");
    timeline.result("c", JSON.stringify({ status: "rejected", message: "The user rejected closeWorkRequest; it did not run.", comment: "not yet" }));
    timeline.result("l", { status: "cancelled", message: "The approval for closeWorkRequest was cancelled; it did not run." });
    timeline.restore([
      { call: { ...close, toolCallId: "r" }, location: "server", outcome: undefined, content: JSON.stringify({ status: "rejected", message: "Rejected." }) },
      { call: { ...close, toolCallId: "d" }, location: "server", outcome: undefined, content: JSON.stringify({ status: "rejected" }) }, // no words: not the server's refusal
    ]);
    expect(timeline.list().map(({ toolCallId, status, message }) => [toolCallId, status, message])).toEqual([
      ["c", "rejected", "The user rejected closeWorkRequest; it did not run."],
      ["l", "cancelled", "The approval for closeWorkRequest was cancelled; it did not run."],
      ["r", "rejected", "Rejected."],
      ["d", "done", undefined],
    ]);
  });

  it("marks as awaiting only calls still calling or awaiting", () => {
    const timeline = createToolActivityTimeline(() => {});
    timeline.calling(s, "server");
    timeline.calling(a, "browser");
    timeline.outcome(a, { status: "succeeded" });
    timeline.markAwaiting(["s", "a", "missing"]);
    expect(timeline.list().map((activity) => activity.status)).toEqual(["awaiting", "succeeded"]);
  });

  it("shows a cancelled call with its message, and an outcome with its stage, reason and message", () => {
    const timeline = createToolActivityTimeline(() => {});
    timeline.cancelled(a, "Cancelled before its arguments were complete; it did not run.");
    timeline.outcome({ ...a, toolCallId: "b" }, { status: "failed", stage: "switched", reason: "not_found", message: "No such record." });
    expect(timeline.list()).toEqual([
      { ...a, location: "browser", status: "cancelled", message: "Cancelled before its arguments were complete; it did not run." },
      { ...a, toolCallId: "b", location: "browser", status: "failed", stage: "switched", reason: "not_found", message: "No such record." },
    ]);
  });

  it("restores entries from history with one change notice: outcomes, results, and calls still open", () => {
    const onChange = vi.fn();
    const timeline = createToolActivityTimeline(onChange);
    const outcome: ToolOutcome = { status: "succeeded", stage: "displayed" };
    timeline.restore([
      { call: a, location: "browser", content: JSON.stringify(outcome), outcome },
      { call: s, location: "server", content: JSON.stringify({ error: { message: "No such screen." } }), outcome: undefined },
      { call: { ...s, toolCallId: "s2" }, location: "server", content: "{}", outcome: undefined },
      { call: { ...s, toolCallId: "s3" }, location: "server", content: undefined, outcome: undefined },
    ]);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(timeline.list()).toEqual([
      { ...a, location: "browser", status: "succeeded", stage: "displayed" },
      { ...s, location: "server", status: "error", message: "No such screen." },
      { ...s, toolCallId: "s2", location: "server", status: "done" },
      { ...s, toolCallId: "s3", location: "server", status: "calling" },
    ]);
  });
});

// Through the runner: the statuses a call goes through as its events arrive.
describe("createToolRunner, the timeline", () => {
  it("shows server tools at the server, done or error from TOOL_CALL_RESULT", () => {
    const p = page();
    p.feed([
      ev.runStarted(),
      ...call("s1", { query: "requests" }, "lookupScreens"),
      ...call("s2", { query: "nothing" }, "lookupScreens"),
      ev.result("s1", JSON.stringify({ screens: [] })),
      ev.result("s2", JSON.stringify({ error: { code: "not_found", message: "No such screen." } })),
    ]);
    expect(p.runner.activities()).toEqual([
      { toolCallId: "s1", toolName: "lookupScreens", runId: RUN, location: "server", status: "done" },
      { toolCallId: "s2", toolName: "lookupScreens", runId: RUN, location: "server", status: "error", message: "No such screen." },
    ]);
    expect(p.statuses("s1")).toEqual(["calling", "done"]);
  });

  it("shows a server tool as calling until its result arrives", () => {
    const p = page();
    p.feed(call("s1", {}, "lookupScreens"));
    expect(p.runner.activities()).toMatchObject([{ toolCallId: "s1", location: "server", status: "calling" }]);
  });

  it("takes a browser call from calling to running to its outcome, with stage and reason", async () => {
    let finish!: (outcome: ToolOutcome) => void;
    const p = page({ execute: () => new Promise<ToolOutcome>((resolve) => (finish = resolve)) });
    p.feed([ev.runStarted(), ev.start("a"), ev.args("a", '{"screenId":"MNU-1"}')]);
    expect(p.runner.activities()).toEqual([{ toolCallId: "a", toolName: navigateToScreen.name, runId: RUN, location: "browser", status: "calling" }]);
    p.feed([ev.end("a")]);
    expect(p.runner.activities()).toMatchObject([{ toolCallId: "a", status: "running" }]);
    finish({ status: "failed", stage: "switched", reason: "not_found", message: "No such record." });
    await p.runner.settle(["a"]);
    expect(p.runner.activities()).toEqual([
      {
        toolCallId: "a",
        toolName: navigateToScreen.name,
        runId: RUN,
        location: "browser",
        status: "failed",
        stage: "switched",
        reason: "not_found",
        message: "No such record.",
      },
    ]);
    expect(p.statuses("a")).toEqual(["calling", "running", "failed"]);
  });

  it("keeps a browser call's outcome when its tool message comes back as TOOL_CALL_RESULT", async () => {
    const p = page();
    p.feed([ev.runStarted(), ...call("a", { screenId: "MNU-1" })]);
    await p.runner.settle(["a"]);
    p.feed([ev.result("a", JSON.stringify({ error: { message: "not from the browser" } }))]);
    expect(p.runner.activities()).toMatchObject([{ toolCallId: "a", location: "browser", status: "succeeded", stage: "displayed" }]);
  });

  it("shows a blocked call with its reason", async () => {
    const p = page({ mode: "fullscreen", handler: { modes: ["side"] } });
    p.feed(call("a", { screenId: "MNU-1" }));
    await p.runner.settle(["a"]);
    expect(p.statuses("a")).toEqual(["calling", "running", "blocked"]);
    expect(p.runner.activities()).toMatchObject([{ status: "blocked", reason: "blocked_by_mode" }]);
  });

  it("shows a reloaded call with the outcome settle gave it", async () => {
    const p = page().reload();
    p.feed(call("a", { screenId: "MNU-1" }), { live: false });
    await p.runner.settle(["a"]);
    expect(p.runner.activities()).toMatchObject([{ toolCallId: "a", location: "browser", status: "cancelled", reason: "page_reloaded" }]);
  });
});
