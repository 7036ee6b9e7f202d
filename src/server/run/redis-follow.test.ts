import { EventType, type BaseEvent } from "@ag-ui/core";
import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createMemoryRunStore } from "../store/memory.ts";
import type { RunStore } from "../store/port.ts";
import { followRemote, type BlockingConnections } from "./redis-follow.ts";
import { sequenceEvents, type SequencedEvent } from "./sequence-events.ts";

const delta = (text: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: text }) as BaseEvent;
const finished: BaseEvent = { type: EventType.RUN_FINISHED, threadId: "t1", runId: "r1" } as BaseEvent;

/** Connections to a Redis that is down: every read fails, as ioredis fails it once its retries are spent. */
const redisDown: BlockingConnections = {
  borrow: () => ({ xread: () => Promise.reject(new Error("Reached the max retries per request limit")), disconnect() {} }) as unknown as Redis,
  release() {},
};

async function runningRun(store: RunStore): Promise<void> {
  await store.beginRun({
    thread: { threadId: "t1", agentId: "a", ownerId: "kim" },
    run: { runId: "r1", userId: "kim", input: {}, log: [] },
    events: sequenceEvents([{ type: EventType.RUN_STARTED, threadId: "t1", runId: "r1" } as BaseEvent], 1),
    messages: [],
    resolvedToolCallIds: [],
  });
  await store.appendEvents("r1", sequenceEvents([delta("a"), delta("b")], 2));
}

/** A Redis that answers but whose stream stays silent: the run's instance cannot publish to it (its own link to Redis is down). */
const silentStream: BlockingConnections = {
  borrow: () => ({ xread: () => new Promise((resolve) => setTimeout(() => resolve(null), 20)), disconnect() {} }) as unknown as Redis,
  release() {},
};

describe("followRemote", () => {
  it("gets a run's events from the store while its stream stays silent and the run goes on, not only once it ended", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const seen: SequencedEvent[] = [];
    const controller = new AbortController();
    const following = (async () => {
      const source = followRemote({ store, connections: silentStream, key: "tether:run:r1", runId: "r1", afterSeq: 0, signal: controller.signal });
      for await (const batch of source) seen.push(...batch);
    })();
    await expect.poll(() => seen.map((event) => event.seq)).toEqual([1, 2, 3]);
    await store.appendEvents("r1", sequenceEvents([delta("c")], 4));
    await expect.poll(() => seen.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    await store.finishRun({ runId: "r1", status: "finished", events: sequenceEvents([finished], 5) });
    await following;
    expect(seen.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it("follows a run of another instance from the store alone while Redis is down, to its end, missing and repeating nothing", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const seen: SequencedEvent[] = [];
    const following = (async () => {
      for await (const batch of followRemote({ store, connections: redisDown, key: "tether:run:r1", runId: "r1", afterSeq: 1 })) seen.push(...batch);
    })();

    await expect.poll(() => seen.map((event) => event.seq)).toEqual([2, 3]);
    await store.appendEvents("r1", sequenceEvents([delta("c")], 4));
    await store.finishRun({ runId: "r1", status: "finished", events: sequenceEvents([finished], 5) });
    await following;
    expect(seen.map((event) => event.seq)).toEqual([2, 3, 4, 5]);
    expect(seen.at(-1)!.event.type).toBe(EventType.RUN_FINISHED);
  });

  it("stops following from the store when its client goes away", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const controller = new AbortController();
    const seen: SequencedEvent[] = [];
    const following = (async () => {
      const source = followRemote({ store, connections: redisDown, key: "tether:run:r1", runId: "r1", afterSeq: 0, signal: controller.signal });
      for await (const batch of source) seen.push(...batch);
    })();
    await expect.poll(() => seen.length).toBe(3);
    controller.abort();
    await following;
  });
});
