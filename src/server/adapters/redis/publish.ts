import type { Redis } from "ioredis";
import type { RunHub, SequencedEvent } from "../../hub/index.ts";
import { ENDED_STREAM_TTL_MS, LIVE_STREAM_TTL_MS, STREAM_MAXLEN, encodeEntry, entryId, isTerminal } from "./stream.ts";

/** Pauses between tries to publish a batch while Redis refuses it. */
const RETRY_MS = [50, 100, 250, 500, 1000, 2000, 5000];

/**
 * Copies one run's events from the local hub to its Redis stream, batch by
 * batch, in order. It is a follower of the local hub like any other, so it
 * gets what followers may get and no more: never too far past the store, and
 * the terminal event only once the store has the run's end (or the RUN_ERROR
 * that replaced it). A batch Redis refuses is tried again until it takes it,
 * `signal` stops the publisher, or the run has ended and is all stored
 * (followers elsewhere then read it from the store); the local hub keeps the
 * events meanwhile.
 */
export async function publishRun(options: {
  redis: Redis;
  local: RunHub;
  runId: string;
  key: string;
  signal: AbortSignal;
  onError: (error: unknown) => void;
}): Promise<void> {
  const { redis, key, signal } = options;
  for await (const batch of options.local.follow(options.runId, 0, signal)) {
    for (let failures = 0; ; failures++) {
      try {
        await append(redis, key, batch);
        break;
      } catch (error) {
        if (failures === 0) options.onError(error);
        if (signal.aborted) return;
        // The run has ended and the store has all of it (the local hub let it go): other instances read it there,
        // so its events are not kept in memory for a Redis that may stay down for hours.
        if (options.local.lastSeq(options.runId) === undefined) return;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]));
      }
    }
    if (isTerminal(batch.at(-1)!.event)) return;
  }
}

async function append(redis: Redis, key: string, batch: SequencedEvent[]): Promise<void> {
  const pipeline = redis.pipeline();
  for (const event of batch) pipeline.xadd(key, "MAXLEN", "~", STREAM_MAXLEN, entryId(event.seq), "e", encodeEntry(event));
  pipeline.pexpire(key, isTerminal(batch.at(-1)!.event) ? ENDED_STREAM_TTL_MS : LIVE_STREAM_TTL_MS);
  const results = (await pipeline.exec()) ?? [];
  for (const [error] of results) {
    // A retry after a partly applied pipeline: the entries Redis has are not added twice.
    if (error && !/equal or smaller/.test(error.message)) throw error;
  }
}
