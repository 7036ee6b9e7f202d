import type { BaseEvent } from "@ag-ui/core";
import { Observable } from "rxjs";
import { TetherError, isTetherError } from "../../protocol/index.ts";
import { errorFromResponse } from "../errors.ts";
import { readSseBatches } from "./sse-reader.ts";

export interface EventStreamOptions {
  /** Opens the stream: the run's POST, or the thread's events for a connect. */
  open(signal: AbortSignal): Promise<Response>;
  /** Opens the thread's events after the given event id (or its active run, when none arrived yet). */
  resume(lastEventId: string | undefined, signal: AbortSignal): Promise<Response>;
  /** Called with every event's id as it arrives, so a later page can resume from it. */
  onEventId?(id: string): void;
  /** Sees every event as it arrives, before the reference pipeline applies it (where browser tools act). */
  onEvent?(event: BaseEvent): void;
  /** Reconnects allowed after a drop, each after a longer pause. Default 8: about 20 s, long enough for a server to restart. */
  maxReconnects?: number;
  /** The first pause between reconnects, doubled each time up to 4 s. Default 250 ms. */
  backoffMs?: number;
}

/**
 * A run's events as an Observable, the shape `@ag-ui/client`'s pipeline
 * takes. When the connection drops before the run ended, it reconnects with
 * `Last-Event-ID` and carries on, so the pipeline sees one seamless stream:
 * no event twice, none missing.
 */
export function eventStream(options: EventStreamOptions): Observable<BaseEvent> {
  return new Observable<BaseEvent>((subscriber) => {
    const controller = new AbortController();
    let lastEventId: string | undefined;
    let ended = false;
    const maxReconnects = options.maxReconnects ?? 8;
    const backoff = options.backoffMs ?? 250;

    /** Reads a response to its end; returns how many events it delivered. A dropped connection just ends it. */
    const consume = async (response: Response): Promise<number> => {
      if (!response.ok) throw await errorFromResponse(response);
      if (!response.body) return 0;
      let delivered = 0;
      try {
        for await (const batch of readSseBatches(response.body, controller.signal)) {
          for (const message of batch) {
            const event = JSON.parse(message.data) as BaseEvent;
            if (message.id) {
              lastEventId = message.id;
              options.onEventId?.(message.id);
            }
            ended = event.type === "RUN_FINISHED" || event.type === "RUN_ERROR";
            delivered++;
            options.onEvent?.(event);
            subscriber.next(event);
          }
        }
      } catch {
        // The connection dropped mid-stream; the loop below resumes after the last event.
      }
      return delivered;
    };

    void (async () => {
      try {
        await consume(await options.open(controller.signal));
        // `failures` counts tries since the last one that delivered events: the limit is per drop, not per stream.
        for (let failures = 0; !ended && !controller.signal.aborted;) {
          if (failures === maxReconnects) throw new TetherError("network_error", `The event stream dropped and ${maxReconnects} reconnects failed.`);
          await new Promise((resolve) => setTimeout(resolve, Math.min(backoff * 2 ** failures, 4000)));
          let response: Response;
          try {
            response = await options.resume(lastEventId, controller.signal);
          } catch (error) {
            if (isTetherError(error)) throw error; // resuming is impossible, not merely failing
            failures++; // the server is out of reach; try again after a longer pause
            continue;
          }
          if (response.status >= 500) {
            failures++; // a proxy or a restart in between: worth another try
            continue;
          }
          failures = (await consume(response)) > 0 ? 0 : failures + 1; // a refusal (4xx) throws: reconnecting would not help
        }
        subscriber.complete();
      } catch (error) {
        if (controller.signal.aborted) subscriber.complete();
        else subscriber.error(error);
      }
    })();
    return () => controller.abort();
  });
}
