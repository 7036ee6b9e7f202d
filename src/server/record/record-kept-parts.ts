import type { RecordModelCall } from "../../protocol/index.ts";
import { cutPointers, markCutsAt } from "../../protocol/record-cuts.ts";
import type { RecordCallsFact, RecordRequestFact, RunFact } from "./run-facts.ts";
import type { RecordRequestPart } from "./record-input-cache.ts";
import { RECORD_RULES_VERSION } from "./record-limits.ts";

/** A record's request part: what is kept of the request, and what started the run. */
export type RequestPart = Pick<RecordRequestPart, "input" | "trigger">;

/** The parts of a run's record computed once and kept as its facts. */
export interface KeptParts {
  request?: RequestPart;
  /** An ended run's calls. */
  modelCalls?: RecordModelCall[];
}

/**
 * The parts kept under today's rules, the newest of each kind (two first
 * readers may both have written one), with their cuts marked again.
 */
export function keptParts(facts: RunFact[]): KeptParts {
  const kept: KeptParts = {};
  for (const fact of facts) {
    if (fact.kind === "record-request" && fact.rules === RECORD_RULES_VERSION) {
      const request = { input: fact.input, trigger: fact.trigger };
      markCutsAt(request, fact.cuts);
      kept.request = request;
    }
    if (fact.kind === "record-calls" && fact.rules === RECORD_RULES_VERSION) {
      markCutsAt(fact.modelCalls, fact.cuts);
      kept.modelCalls = fact.modelCalls;
    }
  }
  return kept;
}

export function requestFact(request: RequestPart): RecordRequestFact {
  return { kind: "record-request", rules: RECORD_RULES_VERSION, input: request.input, trigger: request.trigger, cuts: cutPointers(request) };
}

export function callsFact(modelCalls: RecordModelCall[]): RecordCallsFact {
  return { kind: "record-calls", rules: RECORD_RULES_VERSION, modelCalls, cuts: cutPointers(modelCalls) };
}
