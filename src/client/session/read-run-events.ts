import type { MiddlewareFunction } from "@ag-ui/client";
import type { BaseEvent } from "@ag-ui/core";
import { tap } from "rxjs";

/** One event read off the wire; `live` is false for a run this page only follows. */
export type ReadEvent = (event: BaseEvent, live: boolean) => void;

/**
 * Tether's event handling as `@ag-ui/client` middleware, for `agent.use(...)`:
 * every event of a run (and, on a TetherHttpAgent, of a run it follows) is
 * read once, as the transport emits it, by `read`.
 *
 * Why a tap at the head of the chain and not a subscriber: browser tools must
 * act within milliseconds of their TOOL_CALL_END, and the reference pipeline
 * after the chain (enforce, chunks, verify, then apply) hands events to
 * subscribers asynchronously, one awaited step after another. A middleware
 * stage runs synchronously as the event leaves the transport, in the same
 * tick the SSE reader parsed it, so the tool runs before the pipeline has
 * applied the event (bench:client's dispatch latency is the same as when
 * the transport called the reader itself).
 *
 * @example
 * agent.use(readRunEvents(agent, (event, live) => runner.observe(event, { runId, live })));
 */
export function readRunEvents(agent: { readonly live: boolean }, read: ReadEvent): MiddlewareFunction {
  return (input, next) => next.run(input).pipe(tap((event) => read(event, agent.live)));
}
