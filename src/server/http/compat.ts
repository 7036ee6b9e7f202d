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

/** The name of the `CUSTOM` event that carries, for a 0.0.x client, the browser calls a run stopped on. */
export const PENDING_TOOL_CALLS_EVENT = "tether.pending_tool_calls";

/** The compatibility level the request asks for in `?compat=`; undefined for AG-UI 1.0. */
export function readCompat(c: Context): Compat | undefined {
  const asked = c.req.query("compat");
  if (asked === undefined) return undefined;
  if ((COMPAT_LEVELS as readonly string[]).includes(asked)) return asked as Compat;
  throw new TetherError(
    "invalid_input",
    `compat=${JSON.stringify(asked.slice(0, 40))} is not a compatibility level Tether knows; use ${COMPAT_LEVELS.join(" or ")}, or leave it out for AG-UI 1.0.`,
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
 * A `RUN_FINISHED` that stopped on browser calls becomes the `CUSTOM` event
 * `tether.pending_tool_calls` ({ toolCallIds }) followed by the plain success.
 * The custom event takes the id of the event before it, so a client that
 * reconnects from it is sent the end again (and the custom event with it).
 */
function downgrade(sequenced: SequencedEvent): SequencedEvent[] {
  const { event, seq } = sequenced;
  if (event.type !== EventType.RUN_FINISHED) return [sequenced];
  const outcome = (event as { outcome?: { type?: string; pendingToolCallIds?: string[] } }).outcome;
  if (outcome?.pendingToolCallIds === undefined) return [sequenced];
  const { pendingToolCallIds, ...rest } = outcome;
  const pending = { type: EventType.CUSTOM, name: PENDING_TOOL_CALLS_EVENT, value: { toolCallIds: pendingToolCallIds } } as BaseEvent;
  return [
    { seq: seq - 1, event: pending },
    { seq, event: { ...event, outcome: rest } as BaseEvent },
  ];
}
