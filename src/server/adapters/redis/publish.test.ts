import { EventType, type BaseEvent } from "@ag-ui/core";
import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createMemoryRunStore } from "../../store/index.ts";
import { createRunHub, sequenceEvents } from "../../hub/index.ts";
import { publishRun } from "./publish.ts";

/** A Redis that is down: every pipeline fails, as ioredis fails it once its retries are spent. */
const redisDown = {
  pipeline: () => ({ xadd() {}, pexpire() {}, exec: () => Promise.reject(new Error("Reached the max retries per request limit")) }),
} as unknown as Redis;

describe("publishRun", () => {
  it("lets a run go once it has ended and the store has all of it, however long Redis stays down: its events are not kept in memory for Redis", async () => {
    const store = createMemoryRunStore();
    const first = sequenceEvents([{ type: EventType.RUN_STARTED, threadId: "t1", runId: "r1" } as BaseEvent], 1);
    await store.beginRun({
      thread: { threadId: "t1", agentId: "a", ownerId: "kim" },
      run: { runId: "r1", userId: "kim", input: {}, log: [] },
      events: first,
      messages: [],
      resolvedToolCallIds: [],
    });
    const local = createRunHub({ store });
    const channel = local.open({ runId: "r1", threadId: "t1", stored: first });
    const errors: unknown[] = [];
    const stop = new AbortController();
    let done = false;
    const publishing = publishRun({
      redis: redisDown,
      local,
      runId: "r1",
      key: "tether:run:r1",
      signal: stop.signal,
      onError: (error) => errors.push(error),
    }).then(() => (done = true));
    channel.emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "hello" } as BaseEvent);
    await channel.end({ type: EventType.RUN_FINISHED, threadId: "t1", runId: "r1" } as BaseEvent, { status: "finished" });

    await expect.poll(() => done, { timeout: 3000 }).toBe(true);
    expect(errors).toHaveLength(1);
    expect((await store.getRun("r1"))?.status).toBe("finished");
    stop.abort();
    await publishing;
  });
});
