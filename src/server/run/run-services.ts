import type { TetherError } from "../../protocol/index.ts";
import type { RunStore } from "../store/index.ts";
import type { RunChannel } from "../hub/index.ts";
import type { IdSource } from "./ids.ts";
import type { RunObserver } from "./run-observer.ts";

/** What the loop needs beside the prepared run: where its events go, the store, cancellation, ids. */
export interface RunServices {
  store: RunStore;
  channel: RunChannel;
  signal: AbortSignal;
  ids: IdSource;
  /** How approvals are identified and when they lapse. */
  approvals: { secret: string; now(): Promise<Date> };
  /** Whether the run writes its model calls (and an upstream's events) down for its record (`createTetherApp({ records })`). */
  records: boolean;
  /** Told each fact as the run writes it (telemetry), when the app configured one. */
  observer?: RunObserver;
  /** Told of a model error that ends the run, for the server's log (the client is told Tether's words, not the provider's). */
  onModelError?(error: TetherError, runId: string): void;
}
