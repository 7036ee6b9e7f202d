import type { BaseEvent } from "@ag-ui/core";
import { cutPointers } from "../../protocol/record-cuts.ts";
import { keep } from "./keep.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import type { UpstreamEventsFact } from "./run-facts.ts";

/** What one upstream step sent, written down as it arrives for the run's record. */
export interface UpstreamEventLog {
  /** An event as the upstream sent it, before any transform; told of each, in order. */
  receive(event: BaseEvent): void;
  /** Tether set aside the event last received (or an event the client library made of it), and why. */
  ignore(why: string): void;
  /** The step's events as the run stores them: capped, redacted when the record is read. */
  fact(): UpstreamEventsFact;
}

/** An event taken in: its JSON as received (a snapshot: later stages may build on the object), or already cut. */
interface Taken {
  type: string;
  json?: string;
  kept?: unknown;
  ignored?: string;
}

/** What stands for an event that cannot be kept. */
export const NOT_KEPT = "(not kept: JSON cannot hold it, or it nests too deep)";

/** How long the reasons given for one event may grow (several events made of one chunk may each be set aside). */
const REASONS_CHARS = 500;

/**
 * The log of one upstream step. Bounded as it goes (`RECORD_LIMITS.upstreamEvents`
 * events, `upstreamEventChars` of them as JSON; an event over its own cap is cut,
 * redacted, at once), so an upstream that sends without end holds no more than
 * that here nor in the store; past the caps, events are only counted. The rest is
 * redacted when the record is read, as the run's own events are: a run pays one
 * `JSON.stringify` per event for it, and a streamed secret's deltas are read as one text.
 */
export function createUpstreamEventLog(step: number): UpstreamEventLog {
  const taken: Taken[] = [];
  const leftOut = { count: 0, ignored: 0 };
  let received = 0;
  let chars = 0;
  let full = false;
  // The event last received, when it was taken; undefined when it was left out (or nothing came yet).
  let last: Taken | undefined;
  let lastCounted = true;

  const leave = () => {
    full = true;
    leftOut.count++;
    last = undefined;
    lastCounted = false;
  };

  return {
    receive(event) {
      received++;
      if (full || taken.length >= RECORD_LIMITS.upstreamEvents) return leave();
      const type = typeof event?.type === "string" ? event.type.slice(0, 200) : "(no type)";
      let entry: Taken;
      let size: number;
      try {
        const json = JSON.stringify(event) ?? "null";
        entry = json.length <= RECORD_LIMITS.event ? { type, json } : { type, kept: keep<unknown>(event, RECORD_LIMITS.event) };
        size = entry.json?.length ?? JSON.stringify(entry.kept).length;
      } catch {
        // An AbstractAgent's event may hold what JSON cannot (a cycle, a BigInt); anyone's may nest too deep to walk.
        entry = { type, kept: NOT_KEPT };
        size = NOT_KEPT.length;
      }
      if (chars + size > RECORD_LIMITS.upstreamEventChars) return leave();
      chars += size;
      taken.push(entry);
      last = entry;
    },
    ignore(why) {
      if (last) {
        const reasons = last.ignored ? `${last.ignored}; ${why}` : why;
        last.ignored = reasons.slice(0, REASONS_CHARS);
      } else if (!lastCounted) {
        leftOut.ignored++;
        lastCounted = true;
      }
    },
    fact() {
      const cuts: string[] = [];
      const events = taken.map((entry, index) => {
        if (entry.kept !== undefined) cuts.push(...cutPointers(entry.kept).map((pointer) => `/${index}/event${pointer}`));
        return {
          type: entry.type,
          event: entry.json === undefined ? entry.kept : (JSON.parse(entry.json) as unknown),
          ...(entry.ignored ? { ignored: entry.ignored } : {}),
        };
      });
      return { kind: "upstream-events", step, received, events, ...(leftOut.count > 0 ? { leftOut: { ...leftOut } } : {}), cuts };
    },
  };
}
