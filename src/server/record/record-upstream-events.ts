import type { BaseEvent } from "@ag-ui/core";
import type { RecordModelCall, RecordUpstreamEvent, RecordUpstreamEvents } from "../../protocol/index.ts";
import { markCutsAt } from "../../protocol/record-cuts.ts";
import { keep } from "./keep.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import { redactString } from "./redact/index.ts";
import type { RunFact, UpstreamEventsFact } from "./run-facts.ts";
import { redactStreamedDeltas } from "./streamed-deltas.ts";
import { NOT_KEPT } from "./upstream-event-log.ts";

/** The model calls with what their upstream agent sent (`upstream`), from the run's `upstream-events` facts, joined by step. */
export function withUpstreamEvents(modelCalls: RecordModelCall[], facts: RunFact[]): RecordModelCall[] {
  const byStep = new Map<number, UpstreamEventsFact>();
  for (const fact of facts) if (fact.kind === "upstream-events") byStep.set(fact.step, fact);
  if (byStep.size === 0) return modelCalls;
  return modelCalls.map((call) => {
    const fact = byStep.get(call.step);
    return fact ? { ...call, upstream: recordUpstreamEvents(fact) } : call;
  });
}

/**
 * One step's upstream events as the record gives them: redacted as any event
 * of the record (a secret streamed across deltas as the text they make) and
 * each capped; those cut as they arrived were redacted then.
 */
function recordUpstreamEvents(fact: UpstreamEventsFact): RecordUpstreamEvents {
  markCutsAt(fact.events, fact.cuts);
  // Events cut as they came (every cut in the fact is one's) were kept then: kept again, their cuts would read as data.
  const keptThen = new Set(fact.cuts.map((pointer) => Number(pointer.split("/")[1])));
  const streamed = fact.events.flatMap(({ event }, index) => (!keptThen.has(index) && isEvent(event) ? [{ seq: index, event }] : []));
  const deltas = redactStreamedDeltas(streamed);
  const events = fact.events.map(({ type, event, ignored }, index): RecordUpstreamEvent => {
    const delta = deltas.get(index);
    return {
      type: redactString(type),
      event:
        keptThen.has(index) || event === NOT_KEPT ? event : keep<unknown>(delta === undefined ? event : { ...(event as object), delta }, RECORD_LIMITS.event),
      ...(ignored ? { ignored: redactString(ignored) } : {}),
    };
  });
  return { received: fact.received, events, ...(fact.leftOut ? { leftOut: fact.leftOut } : {}) };
}

function isEvent(value: unknown): value is BaseEvent {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
