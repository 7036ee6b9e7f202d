import { EventType, type BaseEvent, type RunErrorEvent, type RunFinishedEvent } from "@ag-ui/core";
import type { TetherError } from "../../protocol/index.ts";
import type { CallJournal } from "../tools/index.ts";
import { errorFromRunError } from "../errors.ts";
import type { ToolRunner } from "../tools/index.ts";

/** How a run ended, as its RUN_FINISHED or RUN_ERROR said. */
export interface RunEnd {
  runId: string;
  outcome: "success" | "interrupt" | "cancelled" | "error";
  /** Browser calls the run stopped on, whose outcomes are owed; only for `success`. */
  pending: string[];
  /** The RUN_ERROR, as a TetherError. */
  error?: TetherError;
}

export interface RunEventReaderOptions {
  journal: CallJournal;
  runner: ToolRunner;
  onRunStarted?(runId: string): void;
  onRunEnded?(end: RunEnd): void;
}

/**
 * Reads a session's events once each, in the order they arrive off the wire:
 * which run they belong to, whether this page started it, what the tool
 * runner does with them, and how the run ended. `live` is false for a run
 * this page only follows (a reconnect after a reload, a second window): it
 * never acts on those.
 */
export function createRunEventReader(options: RunEventReaderOptions): (event: BaseEvent, live: boolean) => void {
  const { journal, runner } = options;
  let runId = "";
  return (event, live) => {
    if (event.type === EventType.RUN_STARTED) {
      // The server's id for the run is the one its events and pending calls carry.
      runId = (event as unknown as { runId: string }).runId;
      if (live) journal.ownRun(runId);
      options.onRunStarted?.(runId);
    }
    runner.observe(event, { runId, live });
    if (event.type === EventType.RUN_FINISHED) options.onRunEnded?.(runFinished(runId, event as RunFinishedEvent, runner));
    else if (event.type === EventType.RUN_ERROR)
      options.onRunEnded?.({ runId, outcome: "error", pending: [], error: errorFromRunError(event as RunErrorEvent) });
  };
}

function runFinished(runId: string, event: RunFinishedEvent, runner: ToolRunner): RunEnd {
  const outcome = (event as { outcome?: { type?: string; pendingToolCallIds?: string[] } }).outcome;
  if (outcome?.type === "interrupt" || outcome?.type === "cancelled") return { runId, outcome: outcome.type, pending: [] };
  // As the reference client does: without pending ids, a plain AG-UI server's run stopped on the calls it left unanswered.
  const pending = outcome?.pendingToolCallIds?.length ? [...outcome.pendingToolCallIds] : runner.unanswered(runId);
  return { runId, outcome: "success", pending };
}
