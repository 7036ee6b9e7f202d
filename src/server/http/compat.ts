import { EventType, type BaseEvent } from "@ag-ui/core";
import type { Context } from "hono";
import { TetherError } from "../../protocol/index.ts";
import type { RunEvents } from "./event-stream.ts";

/**
 * The AG-UI versions a client can ask a run's events in, by the URL it is
 * configured with (`…/run?compat=ag-ui-0.0`). AG-UI 1.0 is the default and
 * needs nothing. `ag-ui-0.0` is for clients on the 0.0.x packages (CopilotKit
 * up to 1.75 among them): their `RUN_FINISHED` outcome is a strict object
 * that predates `pendingToolCallIds`.
 */
export const COMPAT_LEVELS = ["ag-ui-0.0"] as const;
export type Compat = (typeof COMPAT_LEVELS)[number];

/** The `CUSTOM` event that carries, for a 0.0.x client, the browser calls a run stopped on: `value: { toolCallIds }`. */
export const PENDING_TOOL_CALLS_EVENT = "tether.pending_tool_calls";
/** The `CUSTOM` event that carries an outcome 0.0.x has no type for (`cancelled`): `value` is the outcome. */
export const RUN_OUTCOME_EVENT = "tether.run_outcome";

/** The compatibility level the request asks for in `?compat=`; undefined for AG-UI 1.0. */
export function readCompat(c: Context): Compat | undefined {
  const asked = c.req.queries("compat");
  if (asked === undefined) return undefined;
  const [level] = asked;
  if (asked.length > 1) throw new TetherError("invalid_input", "Give compat once: one stream speaks one version of AG-UI.");
  if (level === "ag-ui-1.0") return undefined; // the default, said out loud
  if ((COMPAT_LEVELS as readonly string[]).includes(level!)) return level as Compat;
  throw new TetherError(
    "invalid_input",
    `compat=${JSON.stringify(level!.slice(0, 40))} is not a compatibility level Tether knows; use ${COMPAT_LEVELS.join(" or ")}, or leave it out (or ag-ui-1.0) for AG-UI 1.0.`,
  );
}

/**
 * A run's events as a client of `compat` reads them. Nothing Tether promises
 * is lost: what a 0.0.x schema has no field for travels in an event it does
 * have. The stored log and every 1.0 client keep the standard fields.
 */
export function eventsFor(compat: Compat | undefined, source: AsyncIterable<RunEvents>): AsyncIterable<RunEvents> {
  return compat ? downgraded(source) : source; // a 1.0 stream, the hot path, passes untouched
}

async function* downgraded(source: AsyncIterable<RunEvents>): AsyncIterable<RunEvents> {
  for await (const batch of source) yield { runId: batch.runId, events: batch.events.flatMap(downgrade) };
}

type SequencedEvent = RunEvents["events"][number];

/**
 * A `RUN_FINISHED` whose outcome 0.0.x cannot read becomes a `CUSTOM` event
 * that carries it, then the end with what 0.0.x can read: a run stopped on
 * browser calls ends as a plain success after `tether.pending_tool_calls`; a
 * cancelled one with no outcome after `tether.run_outcome`. The custom event
 * is sent without an SSE id (`seq` 0), so every id still names one event of
 * the run's log, and a client that reconnects after the event before it is
 * sent the pair again.
 */
function downgrade(sequenced: SequencedEvent): SequencedEvent[] {
  const { event, seq } = sequenced;
  if (event.type !== EventType.RUN_FINISHED) return [sequenced];
  const outcome = (event as { outcome?: { type?: string; pendingToolCallIds?: string[] } }).outcome;
  if (!outcome) return [sequenced];
  if (outcome.type === "success" && outcome.pendingToolCallIds !== undefined) {
    const { pendingToolCallIds, ...plain } = outcome;
    return [custom(PENDING_TOOL_CALLS_EVENT, { toolCallIds: pendingToolCallIds }), { seq, event: { ...event, outcome: plain } as BaseEvent }];
  }
  if (outcome.type === "success" || outcome.type === "interrupt") return [sequenced];
  const { outcome: _unreadable, ...end } = event as BaseEvent & { outcome?: unknown };
  return [custom(RUN_OUTCOME_EVENT, outcome), { seq, event: end as BaseEvent }];
}

function custom(name: string, value: unknown): SequencedEvent {
  return { seq: 0, event: { type: EventType.CUSTOM, name, value } as BaseEvent };
}
