import { EventType, type Event } from "@ag-ui/core";
import { describe, expect, it, vi } from "vitest";
import { defineBrowserTool, type ToolOutcome } from "../protocol/index.ts";
import { createCallJournal } from "./call-journal.ts";
import { createToolRegistry, type BrowserToolHandler, type PanelMode } from "./tool-registry.ts";
import { createToolRunner } from "./tool-runner.ts";
import type { ToolActivity } from "./tool-activity-timeline.ts";
import { createMemoryStorage } from "../testing/index.ts";

const THREAD = "thread-1";
const RUN = "run-1";

const navigateToScreen = defineBrowserTool({
  name: "navigateToScreen",
  description: "Opens a screen of the app.",
  parameters: {
    type: "object",
    properties: { screenId: { type: "string" } },
    required: ["screenId"],
    additionalProperties: false,
  },
});


/** The AG-UI events of a scripted run. */
const ev = {
  runStarted: (runId = RUN): Event => ({ type: EventType.RUN_STARTED, threadId: THREAD, runId }),
  runFinished: (runId = RUN): Event => ({ type: EventType.RUN_FINISHED, threadId: THREAD, runId }),
  runError: (message = "boom"): Event => ({ type: EventType.RUN_ERROR, message }),
  start: (toolCallId: string, toolCallName = navigateToScreen.name): Event => ({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName }),
  args: (toolCallId: string, delta: string): Event => ({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta }),
  end: (toolCallId: string): Event => ({ type: EventType.TOOL_CALL_END, toolCallId }),
  result: (toolCallId: string, content: string): Event => ({ type: EventType.TOOL_CALL_RESULT, messageId: `m-${toolCallId}`, toolCallId, content }),
};

/** START, the arguments as one delta, END. */
const call = (toolCallId: string, args: unknown, toolName = navigateToScreen.name): Event[] => [
  ev.start(toolCallId, toolName),
  ev.args(toolCallId, JSON.stringify(args)),
  ev.end(toolCallId),
];

const succeeded: ToolOutcome = { status: "succeeded", stage: "displayed" };

interface PageOptions {
  storage?: Storage;
  mode?: PanelMode;
  execute?: BrowserToolHandler["execute"];
  handler?: Partial<Omit<BrowserToolHandler, "execute">>;
}

/** One page load: a registry with a spy executor, a journal over `storage`, and a runner. */
function page(options: PageOptions = {}) {
  const storage = options.storage ?? createMemoryStorage();
  const execute = vi.fn<BrowserToolHandler["execute"]>(options.execute ?? (() => succeeded));
  const registry = createToolRegistry();
  registry.register({ spec: navigateToScreen, execute, ...options.handler });
  const journal = createCallJournal(THREAD, storage);
  let mode: PanelMode = options.mode ?? "side";
  const snapshots: ToolActivity[][] = [];
  const runner = createToolRunner({
    registry,
    journal,
    threadId: THREAD,
    mode: () => mode,
    onChange: () => snapshots.push(runner.activities()),
  });
  const feed = (events: Event[], context: { runId?: string; live?: boolean } = {}) => {
    for (const event of events) runner.observe(event, { runId: context.runId ?? RUN, live: context.live ?? true });
  };
  /** The arguments each execution received, in order. */
  const executed = () => execute.mock.calls.map(([args, execution]) => [execution.toolCallId, args]);
  /** Every status one call went through, without repeats. */
  const statuses = (toolCallId: string) =>
    snapshots
      .map((snapshot) => snapshot.find((activity) => activity.toolCallId === toolCallId)?.status)
      .filter((status, index, all) => status !== undefined && status !== all[index - 1]);
  return {
    storage,
    execute,
    registry,
    journal,
    runner,
    feed,
    executed,
    statuses,
    setMode: (next: PanelMode) => (mode = next),
    /** A new page load over the same sessionStorage. */
    reload: (next: Omit<PageOptions, "storage"> = {}) => page({ ...options, ...next, storage }),
  };
}

const outcomeOf = async (runner: ReturnType<typeof page>["runner"], toolCallId: string) => (await runner.settle([toolCallId]))[0]!.outcome;

describe("createToolRunner", () => {
  describe("executing browser calls", () => {
    it("accumulates arguments split mid-string and executes once at TOOL_CALL_END with the parsed object", async () => {
      const p = page();
      p.feed([ev.runStarted(), ev.start("a"), ev.args("a", '{"screen'), ev.args("a", 'Id":"MNU-3'), ev.args("a", '120"}')]);
      expect(p.execute).not.toHaveBeenCalled();
      p.feed([ev.end("a"), ev.runFinished()]);
      expect(p.executed()).toEqual([["a", { screenId: "MNU-3120" }]]);
      expect(await outcomeOf(p.runner, "a")).toEqual(succeeded);
    });

    it("passes the call id, run id, thread id and panel mode to the executor", () => {
      const p = page({ mode: "modal" });
      p.feed(call("a", { screenId: "MNU-1" }), { runId: "run-7" });
      expect(p.execute).toHaveBeenCalledWith({ screenId: "MNU-1" }, { toolCallId: "a", runId: "run-7", threadId: THREAD, mode: "modal" });
    });

    it("executes once when TOOL_CALL_END arrives twice", async () => {
      const p = page();
      p.feed([ev.runStarted(), ...call("a", { screenId: "MNU-1" }), ev.end("a")]);
      await p.runner.settle(["a"]);
      p.feed([ev.end("a"), ev.runFinished()]);
      expect(p.execute).toHaveBeenCalledTimes(1);
    });

    it("ignores TOOL_CALL_ARGS after TOOL_CALL_END", async () => {
      const p = page({ handler: { onReload: "run-again" } });
      p.feed([ev.runStarted(), ...call("a", { screenId: "MNU-1" }), ev.args("a", "garbage")]);
      expect(p.executed()).toEqual([["a", { screenId: "MNU-1" }]]);
      expect(await outcomeOf(p.runner, "a")).toEqual(succeeded);
    });

    it("does not execute a TOOL_CALL_END that arrives after RUN_FINISHED of its run", async () => {
      const p = page();
      p.feed([ev.runStarted(), ev.start("a"), ev.args("a", '{"screenId":"MNU-1"}'), ev.runFinished(), ev.end("a")]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(p.journal.get("a")).toBeUndefined();
    });

    it("does not execute a TOOL_CALL_END that arrives after RUN_ERROR of its run", () => {
      const p = page();
      p.feed([ev.runStarted(), ev.start("a"), ev.args("a", '{"screenId":"MNU-1"}'), ev.runError(), ev.end("a")]);
      expect(p.execute).not.toHaveBeenCalled();
    });

    it("still executes a late call of one run while another run has finished", () => {
      const p = page();
      p.feed([ev.runStarted("run-1"), ev.runFinished("run-1")], { runId: "run-1" });
      p.feed([ev.runStarted("run-2"), ...call("a", { screenId: "MNU-1" })], { runId: "run-2" });
      expect(p.execute).toHaveBeenCalledTimes(1);
    });

    it("executes interleaved parallel calls to the same tool once each, with their own arguments, in TOOL_CALL_END order", async () => {
      const p = page();
      p.feed([
        ev.runStarted(),
        ev.start("a"),
        ev.start("b"),
        ev.args("b", '{"screenId":"MNU-2"}'),
        ev.args("a", '{"screenId":'),
        ev.args("a", '"MNU-1"}'),
        ev.end("b"),
        ev.end("a"),
        ev.runFinished(),
      ]);
      expect(p.executed()).toEqual([
        ["b", { screenId: "MNU-2" }],
        ["a", { screenId: "MNU-1" }],
      ]);
      expect((await p.runner.settle(["a", "b"])).map((settled) => [settled.toolCallId, settled.outcome.status])).toEqual([
        ["a", "succeeded"],
        ["b", "succeeded"],
      ]);
    });

    it("ignores TOOL_CALL_END for a call that never started", () => {
      const p = page();
      p.feed([ev.runStarted(), ev.args("x", '{"screenId":"MNU-1"}'), ev.end("x")]);
      expect(p.execute).not.toHaveBeenCalled();
    });

    it("does not execute calls to tools this page has no executor for", () => {
      const p = page();
      p.feed([ev.runStarted(), ...call("s", { query: "work requests" }, "lookupScreens")]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(p.journal.get("s")).toBeUndefined();
    });

    it("journals the call as started before the executor runs, and finished with its outcome", async () => {
      let seen: unknown;
      const p = page({
        execute: () => {
          seen = p.journal.get("a");
          return succeeded;
        },
      });
      p.feed(call("a", { screenId: "MNU-1" }));
      expect(seen).toEqual({ runId: RUN, toolName: navigateToScreen.name, state: "started" });
      await p.runner.settle(["a"]);
      expect(p.journal.get("a")).toEqual({ runId: RUN, toolName: navigateToScreen.name, state: "finished", outcome: succeeded });
    });
  });

  describe("calls the server closed or holds", () => {
    it("never runs a call whose TOOL_CALL_END says the server closed it (a cancel cut its arguments off)", () => {
      const p = page();
      p.feed([ev.runStarted(), ev.start("c1"), ev.args("c1", '{"screenId":"MNU-3120"}'), { type: EventType.TOOL_CALL_END, toolCallId: "c1", metadata: { tether: { doNotRun: "cancelled" } } } as Event]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(p.runner.activities()).toEqual([expect.objectContaining({ toolCallId: "c1", status: "cancelled" })]);
    });

    it("holds a call awaiting approval, and runs it once when it comes back pending", async () => {
      const p = page();
      p.feed([ev.runStarted(), ev.start("c1"), ev.args("c1", '{"screenId":"MNU-3120"}'), { type: EventType.TOOL_CALL_END, toolCallId: "c1", metadata: { tether: { awaitsApproval: true } } } as Event]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(p.runner.activities()).toEqual([expect.objectContaining({ toolCallId: "c1", status: "awaiting" })]);
      const [settled] = await p.runner.settle(["c1"]);
      expect(settled!.outcome).toEqual(succeeded);
      expect(p.execute).toHaveBeenCalledTimes(1);
    });

    it("knows which calls it performed that the server has no result for", () => {
      const p = page();
      p.feed([ev.runStarted(), ...call("c1", { screenId: "MNU-3120" }), ...call("c2", { query: "x" }, "lookupScreens"), ev.result("c2", "{}"), ev.runError()]);
      expect(p.runner.performedWithoutResult(RUN)).toEqual(["c1"]);
    });
  });

  describe("replays and reconnects", () => {
    const script: Event[] = [ev.runStarted(), ...call("a", { screenId: "MNU-1" }), ev.result("a", JSON.stringify(succeeded)), ev.runFinished()];

    it("does not execute again when the run's events are replayed with live=false", async () => {
      const p = page();
      p.feed(script);
      await p.runner.settle(["a"]);
      p.feed(script, { live: false });
      expect(p.execute).toHaveBeenCalledTimes(1);
    });

    it("does not execute again when a reconnect delivers the same events live", async () => {
      const p = page();
      p.feed(script.slice(0, 4)); // dropped right after TOOL_CALL_END
      p.feed(script); // the reconnect starts over from RUN_STARTED
      await p.runner.settle(["a"]);
      expect(p.execute).toHaveBeenCalledTimes(1);
    });

    it("executes nothing for a run replayed with live=false, but restores its timeline", () => {
      const p = page();
      p.feed(script.slice(0, 4), { live: false });
      expect(p.execute).not.toHaveBeenCalled();
      expect(p.runner.activities()).toEqual([{ toolCallId: "a", toolName: navigateToScreen.name, runId: RUN, location: "browser", status: "calling" }]);
    });

    it("never executes a call first seen in a replay, even when a live duplicate follows", () => {
      const p = page();
      p.feed(script.slice(0, 4), { live: false });
      p.feed(script.slice(0, 4));
      expect(p.execute).not.toHaveBeenCalled();
    });

    it("after a reload, does not execute a call this tab already ran, replayed or live", async () => {
      const first = page();
      first.feed(script);
      await first.runner.settle(["a"]);
      const second = first.reload();
      second.feed(script, { live: false });
      second.feed(script);
      expect(first.execute).toHaveBeenCalledTimes(1);
      expect(second.execute).not.toHaveBeenCalled();
      expect(await outcomeOf(second.runner, "a")).toEqual(succeeded);
    });

    it("after a reload, does not execute a call journaled as started whose events arrive live again", () => {
      const first = page({ execute: () => new Promise<ToolOutcome>(() => {}) }); // the reload interrupts it
      first.feed(script.slice(0, 4));
      const second = first.reload();
      second.feed(script.slice(0, 4));
      expect(first.execute).toHaveBeenCalledTimes(1);
      expect(second.execute).not.toHaveBeenCalled();
    });

    it("executes every call of a scripted event source exactly once, in order, with the right arguments", async () => {
      const first = page();
      const run1: Event[] = [
        ev.runStarted("run-1"),
        // arguments split mid-string
        ev.start("c1"),
        ev.args("c1", '{"screen'),
        ev.args("c1", 'Id":"MNU-3'),
        ev.args("c1", '120"}'),
        ev.end("c1"),
        // a duplicate TOOL_CALL_END
        ev.end("c1"),
        // interleaved parallel calls to the same tool
        ev.start("c2"),
        ev.start("c3"),
        ev.args("c3", '{"screenId":"MNU-3'),
        ev.args("c2", '{"screenId":"MNU-2'),
        ev.args("c2", '"}'),
        ev.args("c3", '"}'),
        ev.end("c3"),
        ev.end("c2"),
        // a call whose END arrives after RUN_FINISHED
        ev.start("c4"),
        ev.args("c4", '{"screenId":"MNU-4"}'),
        ev.runFinished("run-1"),
        ev.end("c4"),
      ];
      const run2: Event[] = [ev.runStarted("run-2"), ...call("c5", { screenId: "MNU-5" }), ev.runFinished("run-2")];
      first.feed(run1.slice(0, 9), { runId: "run-1" }); // the connection drops after START c3
      first.feed(run1.slice(5), { runId: "run-1" }); // a reconnect re-delivers from the first END on
      first.feed(run1, { runId: "run-1", live: false }); // a replay of the whole run
      first.feed(run2, { runId: "run-2" });
      first.feed(run2, { runId: "run-2" }); // the next run, delivered twice
      await first.runner.settle(["c1", "c2", "c3", "c5"]);
      const second = first.reload();
      second.feed(run1, { runId: "run-1", live: false });
      second.feed(run2, { runId: "run-2", live: false });
      second.feed(run2, { runId: "run-2" });
      await second.runner.settle(["c1", "c2", "c3", "c5"]);

      expect(second.execute).not.toHaveBeenCalled();
      expect(first.executed()).toEqual([
        ["c1", { screenId: "MNU-3120" }],
        ["c3", { screenId: "MNU-3" }],
        ["c2", { screenId: "MNU-2" }],
        ["c5", { screenId: "MNU-5" }],
      ]);
    });
  });

  describe("checking arguments", () => {
    it("does not execute a call whose arguments are not JSON, and settles it failed / invalid_arguments", async () => {
      const p = page();
      p.feed([ev.start("a"), ev.args("a", '{"screenId":"MNU-1"'), ev.end("a")]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(await outcomeOf(p.runner, "a")).toMatchObject({ status: "failed", reason: "invalid_arguments", message: expect.stringMatching(/not valid JSON/) });
    });

    it("does not execute a call whose arguments do not match the schema, and settles it failed / invalid_arguments", async () => {
      const p = page();
      p.feed(call("a", { screenId: 5 }));
      expect(p.execute).not.toHaveBeenCalled();
      const outcome = await outcomeOf(p.runner, "a");
      expect(outcome).toMatchObject({ status: "failed", reason: "invalid_arguments" });
      expect(outcome.message).toMatch(/\/screenId must be string/);
    });

    it("reports every schema problem at once", async () => {
      const p = page();
      p.feed(call("a", { extra: true }));
      const outcome = await outcomeOf(p.runner, "a");
      expect(outcome.message).toMatch(/must have required property 'screenId'/);
      expect(outcome.message).toMatch(/must NOT have additional properties/);
    });

    it("treats empty arguments as an empty object", async () => {
      const p = page();
      p.feed([ev.start("a"), ev.end("a")]);
      expect(p.execute).not.toHaveBeenCalled(); // {} lacks the required screenId
      expect(await outcomeOf(p.runner, "a")).toMatchObject({ status: "failed", reason: "invalid_arguments", message: expect.stringMatching(/required property 'screenId'/) });
    });
  });

  describe("panel modes", () => {
    it("blocks a call in a mode its tool does not allow, without executing it", async () => {
      const p = page({ mode: "fullscreen", handler: { modes: ["side"] } });
      p.feed(call("a", { screenId: "MNU-1" }));
      expect(p.execute).not.toHaveBeenCalled();
      expect(await outcomeOf(p.runner, "a")).toMatchObject({ status: "blocked", reason: "blocked_by_mode", message: expect.stringMatching(/full screen/) });
    });

    it("blocks before the arguments are validated", async () => {
      const p = page({ mode: "modal", handler: { modes: ["side"] } });
      p.feed([ev.start("a"), ev.args("a", "{not json"), ev.end("a")]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(await outcomeOf(p.runner, "a")).toMatchObject({ status: "blocked", reason: "blocked_by_mode", message: expect.stringMatching(/window over the screen/) });
    });

    it("executes in a mode its tool allows", async () => {
      const p = page({ mode: "fullscreen", handler: { modes: ["side", "fullscreen"] } });
      p.feed(call("a", { screenId: "MNU-1" }));
      expect(await outcomeOf(p.runner, "a")).toEqual(succeeded);
    });

    it("reads the mode at TOOL_CALL_END, not at TOOL_CALL_START", async () => {
      const p = page({ handler: { modes: ["side"] } });
      p.feed([ev.start("a"), ev.args("a", '{"screenId":"MNU-1"}')]);
      p.setMode("fullscreen");
      p.feed([ev.end("a")]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(await outcomeOf(p.runner, "a")).toMatchObject({ status: "blocked", reason: "blocked_by_mode" });
    });

    // Bug: tool-runner.ts builds the message as `mode === "modal" ? "a window over the screen" : "full screen"`,
    // so a tool limited to ["fullscreen"] blocked in the side panel is reported as blocked "full screen".
    it("describes the side panel as the side panel when it blocks a call there", async () => {
      const p = page({ mode: "side", handler: { modes: ["fullscreen"] } });
      p.feed(call("a", { screenId: "MNU-1" }));
      const outcome = await outcomeOf(p.runner, "a");
      expect(outcome).toMatchObject({ status: "blocked", reason: "blocked_by_mode" });
      expect(outcome.message).not.toMatch(/full screen/);
    });
  });

  describe("executor results", () => {
    it("settles a throwing executor as failed / executor_failed", async () => {
      const p = page({
        execute: () => {
          throw new Error("router is gone");
        },
      });
      p.feed(call("a", { screenId: "MNU-1" }));
      expect(await outcomeOf(p.runner, "a")).toEqual({ status: "failed", reason: "executor_failed", message: "navigateToScreen failed: router is gone" });
    });

    it("settles a rejecting executor as failed / executor_failed", async () => {
      const p = page({ execute: () => Promise.reject(new Error("timed out")) });
      p.feed(call("a", { screenId: "MNU-1" }));
      expect(await outcomeOf(p.runner, "a")).toMatchObject({ status: "failed", reason: "executor_failed", message: expect.stringMatching(/timed out/) });
    });

    it("settles an executor that returns something other than an outcome as unknown", async () => {
      const p = page({ execute: () => ({ ok: true }) as unknown as ToolOutcome });
      p.feed(call("a", { screenId: "MNU-1" }));
      expect(await outcomeOf(p.runner, "a")).toMatchObject({ status: "unknown" });
      expect(p.journal.get("a")).toMatchObject({ state: "finished", outcome: { status: "unknown" } });
    });

    it("settles a call from its journal entry when no executor is registered", async () => {
      const p = page();
      p.journal.start("x", { runId: RUN, toolName: "gone" });
      expect(await p.runner.settle(["x"])).toEqual([
        { toolCallId: "x", toolName: "gone", kind: "follow-up", outcome: { status: "failed", reason: "executor_failed", message: "This page has no executor for gone." } },
      ]);
    });
  });

  describe("settling", () => {
    it("awaits an execution still in flight", async () => {
      let finish!: (outcome: ToolOutcome) => void;
      const p = page({ execute: () => new Promise<ToolOutcome>((resolve) => (finish = resolve)) });
      p.feed(call("a", { screenId: "MNU-1" }));
      let settled = false;
      const pending = p.runner.settle(["a"]).then((calls) => {
        settled = true;
        return calls;
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(settled).toBe(false);
      expect(p.journal.get("a")?.state).toBe("started");
      finish({ status: "succeeded", stage: "switched" });
      expect(await pending).toEqual([{ toolCallId: "a", toolName: navigateToScreen.name, kind: "follow-up", outcome: { status: "succeeded", stage: "switched" } }]);
      expect(p.execute).toHaveBeenCalledTimes(1);
    });

    it("reports the kind of the tool", async () => {
      const storage = createMemoryStorage();
      const registry = createToolRegistry();
      const showRecipe = defineBrowserTool({ name: "showRecipe", description: "Shows a recipe card.", parameters: { type: "object" }, kind: "render-only" });
      registry.register({ spec: showRecipe, execute: () => succeeded });
      const runner = createToolRunner({ registry, journal: createCallJournal(THREAD, storage), threadId: THREAD, mode: () => "side", onChange: () => {} });
      for (const event of call("r", {}, "showRecipe")) runner.observe(event, { runId: RUN, live: true });
      expect(await runner.settle(["r"])).toEqual([{ toolCallId: "r", toolName: "showRecipe", kind: "render-only", outcome: succeeded }]);
    });
  });

  describe("settling after a reload", () => {
    const events = [ev.runStarted(), ...call("a", { screenId: "MNU-1" })];

    it("settles a call journaled as started but never finished as unknown / page_reloaded", async () => {
      const first = page();
      first.journal.start("a", { runId: RUN, toolName: navigateToScreen.name }); // the executor was about to run when the tab reloaded
      const second = first.reload();
      second.feed(events, { live: false });
      expect(await outcomeOf(second.runner, "a")).toMatchObject({ status: "unknown", reason: "page_reloaded" });
      expect(second.execute).not.toHaveBeenCalled();
      expect(second.journal.get("a")).toMatchObject({ state: "finished", outcome: { status: "unknown", reason: "page_reloaded" } });
    });

    it("settles a started call as unknown even when its events were not replayed", async () => {
      const first = page();
      first.journal.start("a", { runId: RUN, toolName: navigateToScreen.name });
      const second = first.reload();
      expect(await second.runner.settle(["a"])).toEqual([
        { toolCallId: "a", toolName: navigateToScreen.name, kind: "follow-up", outcome: expect.objectContaining({ status: "unknown", reason: "page_reloaded" }) },
      ]);
    });

    it("settles a call this tab never started as cancelled / page_reloaded", async () => {
      const p = page().reload();
      p.feed(events, { live: false });
      expect(await outcomeOf(p.runner, "a")).toMatchObject({ status: "cancelled", reason: "page_reloaded" });
      expect(p.execute).not.toHaveBeenCalled();
    });

    it("runs a known call again when its tool says run-again", async () => {
      const first = page({ handler: { onReload: "run-again" } });
      first.journal.start("a", { runId: RUN, toolName: navigateToScreen.name });
      const second = first.reload();
      second.feed(events, { live: false });
      expect(second.execute).not.toHaveBeenCalled();
      expect(await outcomeOf(second.runner, "a")).toEqual(succeeded);
      expect(second.executed()).toEqual([["a", { screenId: "MNU-1" }]]);
      expect(second.journal.get("a")).toMatchObject({ state: "finished", outcome: succeeded });
    });

    it("settles a finished call with its stored outcome, without executing it again", async () => {
      const first = page({ handler: { onReload: "run-again" }, execute: () => ({ status: "succeeded", stage: "switched" }) });
      first.feed(events);
      await first.runner.settle(["a"]);
      const second = first.reload();
      second.feed(events, { live: false });
      expect(await outcomeOf(second.runner, "a")).toEqual({ status: "succeeded", stage: "switched" });
      expect(second.execute).not.toHaveBeenCalled();
      expect(first.execute).toHaveBeenCalledTimes(1);
    });

    it("settles the same way after a second reload", async () => {
      const first = page();
      first.journal.start("a", { runId: RUN, toolName: navigateToScreen.name });
      const second = first.reload();
      const outcome = await outcomeOf(second.runner, "a");
      const third = second.reload({ handler: { onReload: "run-again" } });
      third.feed(events, { live: false });
      expect(await outcomeOf(third.runner, "a")).toEqual(outcome);
      expect(third.execute).not.toHaveBeenCalled();
    });
  });

  describe("the timeline", () => {
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
        { toolCallId: "a", toolName: navigateToScreen.name, runId: RUN, location: "browser", status: "failed", stage: "switched", reason: "not_found", message: "No such record." },
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
});
