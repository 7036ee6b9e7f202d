import type { RunFact } from "../record/index.ts";
import type { RunEnding } from "../hub/index.ts";
import type { NewRun } from "./prepare-run.ts";

/**
 * Watches one run as it goes: the facts it writes down for its record, and
 * how it ends. Telemetry is one (`traceRuns`: spans). The runner asks for an
 * observer per run only when the app configured one, so a run without one
 * does no work for it.
 */
export interface RunObserver {
  /** Facts to store with the run's start, beside its own (the trace that describes it). */
  readonly startFacts: RunFact[];
  /** A fact the run wrote down (a model call and its tool calls), as soon as it has it. */
  fact(fact: RunFact): void;
  /** How the run ended; called once the store has it. Later calls are ignored. */
  end(ending: RunEnding): void;
}

/** Makes the observer of a run that passed every check, before it is stored. */
export type ObserveRun = (run: NewRun) => RunObserver;
