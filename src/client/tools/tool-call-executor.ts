import { ToolOutcomeSchema, createArgumentChecker, type ToolOutcome } from "../../protocol/index.ts";
import type { CallJournal } from "./call-journal.ts";
import type { BrowserToolHandler, ToolRegistry } from "./tool-registry.ts";

/** What the executor needs of a call: who it is, and its complete arguments. */
export interface CallToExecute {
  toolCallId: string;
  toolName: string;
  runId: string;
  args: string;
}

export interface ToolCallExecutor {
  /**
   * Performs a call, at most once per call id: asked again, it gives the
   * first execution's outcome. A call the journal already holds is not run
   * (returns `undefined`): finished, it has its outcome; started, a reload
   * interrupted it, and only `again` (its tool says `run-again`) runs it anew.
   */
  execute(call: CallToExecute, handler: BrowserToolHandler, options?: { again?: boolean }): Promise<ToolOutcome> | undefined;
  /** The outcome of a call this page ran or is running. */
  outcomeOf(toolCallId: string): Promise<ToolOutcome> | undefined;
}

export interface ToolCallExecutorOptions {
  registry: ToolRegistry;
  journal: CallJournal;
  threadId: string;
  /** The mode the app set; a tool limited to other modes is blocked. */
  mode(): string;
  /** The call was journaled as started and is about to run. */
  onRunning(call: CallToExecute): void;
  /** The call ended, and its outcome is journaled. */
  onOutcome(call: CallToExecute, outcome: ToolOutcome): void;
  /** Called just before the tool's own code, synchronously: instrumentation measures dispatch latency from here. */
  onDispatch?(call: CallToExecute): void;
}

/**
 * Runs browser calls: journals each as started before its code runs and as
 * finished with its outcome, blocks it when the panel mode forbids it, checks
 * its arguments against the tool's schema, and turns whatever the tool did
 * (returned, threw, returned garbage) into an honest outcome.
 */
export function createToolCallExecutor(options: ToolCallExecutorOptions): ToolCallExecutor {
  const { registry, journal } = options;
  const executions = new Map<string, Promise<ToolOutcome>>();
  const checker = createArgumentChecker();
  // Compiling a schema takes tens of milliseconds; do it when a tool registers, not when its call arrives.
  const compileAll = () => {
    for (const handler of registry.list()) checker.compile(handler.spec.parameters, `browser tool "${handler.spec.name}"`);
  };
  compileAll();
  registry.subscribe(compileAll);

  const perform = async (call: CallToExecute, handler: BrowserToolHandler): Promise<ToolOutcome> => {
    const mode = options.mode();
    // Blocked before the arguments are even read: the mode alone decides.
    if (handler.modes && !handler.modes.includes(mode)) {
      return { status: "blocked", reason: "blocked_by_mode", message: `The assistant is in ${mode} mode, so ${call.toolName} cannot act.` };
    }
    // The same check the server makes, with the same words; here it also means nothing was done.
    const args = checker.check(call.toolName, handler.spec.parameters, call.args);
    if (!args.ok) return { status: "failed", reason: "invalid_arguments", message: `${args.error.message} Nothing was done.` };
    options.onDispatch?.(call);
    try {
      const outcome = await handler.execute(args.value, { toolCallId: call.toolCallId, runId: call.runId, threadId: options.threadId, mode });
      const parsed = ToolOutcomeSchema.safeParse(outcome);
      return parsed.success ? parsed.data : { status: "unknown", message: `${call.toolName} returned something that is not an outcome.` };
    } catch (error) {
      return { status: "failed", reason: "executor_failed", message: `${call.toolName} failed: ${(error as Error)?.message ?? String(error)}` };
    }
  };

  return {
    execute(call, handler, { again = false } = {}) {
      const running = executions.get(call.toolCallId);
      if (running) return running;
      const entry = journal.get(call.toolCallId);
      if (entry && !(again && entry.state === "started")) return undefined;
      journal.start(call.toolCallId, { runId: call.runId, toolName: call.toolName });
      options.onRunning(call);
      const pending = perform(call, handler).then((outcome) => {
        journal.finish(call.toolCallId, outcome);
        options.onOutcome(call, outcome);
        return outcome;
      });
      executions.set(call.toolCallId, pending);
      return pending;
    },
    outcomeOf: (toolCallId) => executions.get(toolCallId),
  };
}
