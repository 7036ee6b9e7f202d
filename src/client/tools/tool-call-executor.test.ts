import { describe, expect, it, vi } from "vitest";
import type { ToolOutcome } from "../../protocol/index.ts";
import { createCallJournal } from "./call-journal.ts";
import { createToolCallExecutor, type CallToExecute } from "./tool-call-executor.ts";
import { createToolRegistry, type BrowserToolHandler } from "./tool-registry.ts";
import { createMemoryStorage } from "../../testing/index.ts";
import { RUN, THREAD, navigateToScreen, succeeded } from "../../../test/fixtures/tool-runner-page.ts";

interface Options {
  mode?: string;
  execute?: BrowserToolHandler["execute"];
  handler?: Partial<Omit<BrowserToolHandler, "execute">>;
  storage?: Storage;
}

/** An executor over a fresh journal, with a spy tool and spies on every hook. */
function executor(options: Options = {}) {
  const execute = vi.fn<BrowserToolHandler["execute"]>(options.execute ?? (() => succeeded));
  const handler: BrowserToolHandler = { spec: navigateToScreen, execute, ...options.handler };
  const registry = createToolRegistry();
  registry.register(handler);
  const journal = createCallJournal(THREAD, options.storage ?? createMemoryStorage());
  let mode: string = options.mode ?? "side";
  const hooks = { onRunning: vi.fn(), onOutcome: vi.fn(), onDispatch: vi.fn() };
  const instance = createToolCallExecutor({ registry, journal, threadId: THREAD, mode: () => mode, ...hooks });
  const call = (args: unknown, toolCallId = "a"): CallToExecute => ({
    toolCallId,
    toolName: navigateToScreen.name,
    runId: RUN,
    args: typeof args === "string" ? args : JSON.stringify(args),
  });
  return { executor: instance, execute, handler, journal, hooks, call, setMode: (next: string) => (mode = next) };
}

describe("createToolCallExecutor", () => {
  describe("at most once", () => {
    it("runs a call id once, and gives a second request the first execution's outcome", async () => {
      const x = executor();
      const first = x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler);
      const second = x.executor.execute(x.call({ screenId: "MNU-2" }), x.handler);
      expect(second).toBe(first);
      expect(await first).toEqual(succeeded);
      expect(x.execute).toHaveBeenCalledTimes(1);
      expect(x.executor.outcomeOf("a")).toBe(first);
    });

    it("does not run a call the journal has finished or started (an earlier load of this tab)", () => {
      const x = executor();
      x.journal.start("started", { runId: RUN, toolName: navigateToScreen.name });
      x.journal.start("finished", { runId: RUN, toolName: navigateToScreen.name });
      x.journal.finish("finished", succeeded);
      expect(x.executor.execute(x.call({ screenId: "MNU-1" }, "started"), x.handler)).toBeUndefined();
      expect(x.executor.execute(x.call({ screenId: "MNU-1" }, "finished"), x.handler)).toBeUndefined();
      expect(x.execute).not.toHaveBeenCalled();
      expect(x.executor.outcomeOf("started")).toBeUndefined();
    });

    it("runs a started call again only when asked to (run-again after a reload), never a finished one", async () => {
      const x = executor();
      x.journal.start("a", { runId: RUN, toolName: navigateToScreen.name });
      expect(await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler, { again: true })).toEqual(succeeded);
      expect(x.executor.execute(x.call({ screenId: "MNU-1" }, "b"), x.handler, { again: true })).toBeDefined(); // never journaled: runs
      x.journal.start("c", { runId: RUN, toolName: navigateToScreen.name });
      x.journal.finish("c", succeeded);
      expect(x.executor.execute(x.call({ screenId: "MNU-1" }, "c"), x.handler, { again: true })).toBeUndefined();
      expect(x.execute).toHaveBeenCalledTimes(2);
    });

    it("journals the call as started before the tool runs, and finished with its outcome", async () => {
      let seen: unknown;
      const x = executor({
        execute: () => {
          seen = x.journal.get("a");
          return succeeded;
        },
      });
      await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler);
      expect(seen).toEqual({ runId: RUN, toolName: navigateToScreen.name, state: "started" });
      expect(x.journal.get("a")).toEqual({ runId: RUN, toolName: navigateToScreen.name, state: "finished", outcome: succeeded });
    });

    it("passes the call id, run id, thread id and panel mode to the tool", async () => {
      const x = executor({ mode: "modal" });
      await x.executor.execute({ ...x.call({ screenId: "MNU-1" }), runId: "run-7" }, x.handler);
      expect(x.execute).toHaveBeenCalledWith({ screenId: "MNU-1" }, { toolCallId: "a", runId: "run-7", threadId: THREAD, mode: "modal" });
    });
  });

  describe("hooks", () => {
    it("tells running before the tool runs, dispatch just before its code, and the outcome after the journal has it", async () => {
      const order: string[] = [];
      const x = executor({ execute: () => (order.push("execute"), succeeded) });
      x.hooks.onRunning.mockImplementation(() => order.push("running"));
      x.hooks.onDispatch.mockImplementation(() => order.push("dispatch"));
      x.hooks.onOutcome.mockImplementation(() => order.push(`outcome ${x.journal.get("a")?.state}`));
      await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler);
      expect(order).toEqual(["running", "dispatch", "execute", "outcome finished"]);
      expect(x.hooks.onOutcome).toHaveBeenCalledWith(expect.objectContaining({ toolCallId: "a" }), succeeded);
    });

    it("does not tell dispatch for a call blocked or refused before the tool runs", async () => {
      const blocked = executor({ mode: "fullscreen", handler: { modes: ["side"] } });
      await blocked.executor.execute(blocked.call({ screenId: "MNU-1" }), blocked.handler);
      const invalid = executor();
      await invalid.executor.execute(invalid.call({ screenId: 5 }), invalid.handler);
      expect(blocked.hooks.onDispatch).not.toHaveBeenCalled();
      expect(invalid.hooks.onDispatch).not.toHaveBeenCalled();
      expect(blocked.hooks.onOutcome).toHaveBeenCalledTimes(1);
      expect(invalid.hooks.onOutcome).toHaveBeenCalledTimes(1);
    });
  });

  describe("checking arguments", () => {
    it("does not run a call whose arguments are not JSON, and settles it failed / invalid_arguments", async () => {
      const x = executor();
      const outcome = await x.executor.execute(x.call('{"screenId":"MNU-1"'), x.handler);
      expect(x.execute).not.toHaveBeenCalled();
      expect(outcome).toMatchObject({ status: "failed", reason: "invalid_arguments", message: expect.stringMatching(/not valid JSON/) });
    });

    it("does not run a call whose arguments do not match the schema, and settles it failed / invalid_arguments", async () => {
      const x = executor();
      const outcome = (await x.executor.execute(x.call({ screenId: 5 }), x.handler))!;
      expect(x.execute).not.toHaveBeenCalled();
      expect(outcome).toMatchObject({ status: "failed", reason: "invalid_arguments" });
      expect(outcome.message).toMatch(/\/screenId must be string/);
    });

    it("reports every schema problem at once", async () => {
      const x = executor();
      const outcome = (await x.executor.execute(x.call({ extra: true }), x.handler))!;
      expect(outcome.message).toMatch(/must have required property 'screenId'/);
      expect(outcome.message).toMatch(/must NOT have additional properties/);
    });

    it("treats empty arguments as an empty object", async () => {
      const x = executor();
      const outcome = await x.executor.execute(x.call(""), x.handler);
      expect(x.execute).not.toHaveBeenCalled(); // {} lacks the required screenId
      expect(outcome).toMatchObject({ status: "failed", reason: "invalid_arguments", message: expect.stringMatching(/required property 'screenId'/) });
    });
  });

  describe("panel modes", () => {
    it("blocks a call in a mode its tool does not allow, without running it", async () => {
      const x = executor({ mode: "fullscreen", handler: { modes: ["side"] } });
      expect(await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler)).toMatchObject({
        status: "blocked",
        reason: "blocked_by_mode",
        message: "The assistant is in fullscreen mode, so navigateToScreen cannot act.",
      });
      expect(x.execute).not.toHaveBeenCalled();
    });

    it("blocks before the arguments are validated", async () => {
      const x = executor({ mode: "modal", handler: { modes: ["side"] } });
      expect(await x.executor.execute(x.call("{not json"), x.handler)).toMatchObject({
        status: "blocked",
        reason: "blocked_by_mode",
        message: "The assistant is in modal mode, so navigateToScreen cannot act.",
      });
      expect(x.execute).not.toHaveBeenCalled();
    });

    it("runs in a mode its tool allows", async () => {
      const x = executor({ mode: "fullscreen", handler: { modes: ["side", "fullscreen"] } });
      expect(await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler)).toEqual(succeeded);
    });

    it("reads the mode when the call runs", async () => {
      const x = executor({ handler: { modes: ["side"] } });
      x.setMode("fullscreen");
      expect(await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler)).toMatchObject({ status: "blocked", reason: "blocked_by_mode" });
    });

    // Bug (fixed): the message was built as `mode === "modal" ? "a window over the screen" : "full screen"`,
    // so a tool limited to ["fullscreen"] blocked in the side panel was reported as blocked "full screen".
    it("names the mode it blocked the call in, not a mode the tool allows", async () => {
      const x = executor({ mode: "side", handler: { modes: ["fullscreen"] } });
      const outcome = (await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler))!;
      expect(outcome).toMatchObject({ status: "blocked", reason: "blocked_by_mode" });
      expect(outcome.message).toBe("The assistant is in side mode, so navigateToScreen cannot act.");
    });

    it("takes any mode the app defines", async () => {
      const x = executor({ mode: "presenting", handler: { modes: ["editing"] } });
      expect(await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler)).toMatchObject({
        status: "blocked",
        reason: "blocked_by_mode",
        message: "The assistant is in presenting mode, so navigateToScreen cannot act.",
      });
      x.setMode("editing");
      expect(await x.executor.execute(x.call({ screenId: "MNU-1" }, "b"), x.handler)).toEqual(succeeded);
    });
  });

  describe("tool results", () => {
    it("settles a throwing tool as failed / executor_failed", async () => {
      const x = executor({
        execute: () => {
          throw new Error("router is gone");
        },
      });
      expect(await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler)).toEqual({
        status: "failed",
        reason: "executor_failed",
        message: "navigateToScreen failed: router is gone",
      });
    });

    it("settles a rejecting tool as failed / executor_failed", async () => {
      const x = executor({ execute: () => Promise.reject(new Error("timed out")) });
      expect(await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler)).toMatchObject({
        status: "failed",
        reason: "executor_failed",
        message: expect.stringMatching(/timed out/),
      });
    });

    it("settles a tool that returns something other than an outcome as unknown", async () => {
      const x = executor({ execute: () => ({ ok: true }) as unknown as ToolOutcome });
      expect(await x.executor.execute(x.call({ screenId: "MNU-1" }), x.handler)).toMatchObject({ status: "unknown" });
      expect(x.journal.get("a")).toMatchObject({ state: "finished", outcome: { status: "unknown" } });
    });
  });
});
