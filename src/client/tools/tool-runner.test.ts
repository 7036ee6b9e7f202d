import type { Event, Message } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { defineBrowserTool, type ToolOutcome } from "../../protocol/index.ts";
import { createCallJournal } from "./call-journal.ts";
import { createToolRegistry } from "./tool-registry.ts";
import { createToolRunner } from "./tool-runner.ts";
import { createMemoryStorage } from "../../testing/index.ts";
import { RUN, THREAD, call, ev, navigateToScreen, outcomeOf, page, succeeded } from "../../../test/fixtures/tool-runner-page.ts";

// The runner composed: events in, executions and outcomes out. Each part has its own tests beside it
// (tool-call-tracker, tool-call-executor, tool-activity-timeline, decide-settlement).
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

  describe("panel modes", () => {
    it("reads the mode at TOOL_CALL_END, not at TOOL_CALL_START", async () => {
      const p = page({ handler: { modes: ["side"] } });
      p.feed([ev.start("a"), ev.args("a", '{"screenId":"MNU-1"}')]);
      p.setMode("fullscreen");
      p.feed([ev.end("a")]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(await outcomeOf(p.runner, "a")).toMatchObject({ status: "blocked", reason: "blocked_by_mode" });
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
      expect(await pending).toEqual([
        { toolCallId: "a", toolName: navigateToScreen.name, kind: "follow-up", outcome: { status: "succeeded", stage: "switched" } },
      ]);
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

  describe("restoring from history", () => {
    it("rebuilds the timeline from a thread's messages, and settles a restored call without running it", async () => {
      const p = page();
      p.journal.start("a", { runId: RUN, toolName: navigateToScreen.name });
      p.journal.finish("a", succeeded);
      const p2 = p.reload();
      const messages: Message[] = [
        { id: "u", role: "user", content: "open the list" },
        {
          id: "m",
          role: "assistant",
          toolCalls: [
            { id: "s", type: "function", function: { name: "lookupScreens", arguments: "{}" } },
            { id: "a", type: "function", function: { name: navigateToScreen.name, arguments: '{"screenId":"MNU-1"}' } },
            { id: "b", type: "function", function: { name: navigateToScreen.name, arguments: '{"screenId":"MNU-2"}' } },
          ],
        },
        { id: "t1", role: "tool", toolCallId: "s", content: JSON.stringify({ screens: [] }) },
      ];
      p2.runner.restore(messages, () => RUN);
      expect(p2.runner.activities()).toEqual([
        { toolCallId: "s", toolName: "lookupScreens", runId: RUN, location: "server", status: "done" },
        { toolCallId: "a", toolName: navigateToScreen.name, runId: RUN, location: "browser", status: "succeeded", stage: "displayed" },
        { toolCallId: "b", toolName: navigateToScreen.name, runId: RUN, location: "browser", status: "calling" },
      ]);
      expect((await p2.runner.settle(["a", "b"])).map((settled) => [settled.toolCallId, settled.outcome.status, settled.outcome.reason])).toEqual([
        ["a", "succeeded", undefined],
        ["b", "cancelled", "page_reloaded"],
      ]);
      expect(p2.execute).not.toHaveBeenCalled();
    });
  });

  describe("settling calls it never ran", () => {
    it("settles a call from its journal entry when no executor is registered", async () => {
      const p = page();
      p.journal.start("x", { runId: RUN, toolName: "gone" });
      expect(await p.runner.settle(["x"])).toEqual([
        {
          toolCallId: "x",
          toolName: "gone",
          kind: "follow-up",
          outcome: { status: "failed", reason: "executor_failed", message: "This page has no executor for gone." },
        },
      ]);
    });
  });
});
