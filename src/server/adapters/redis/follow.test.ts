import { EventType, type BaseEvent } from "@ag-ui/core";
import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createMemoryRunStore, type RunStore } from "../../store/index.ts";
import { createRemoteFollowers } from "./follow.ts";
import { watchRedisHealth } from "./health.ts";
import type { ReadConnections } from "./read-connections.ts";
import { encodeEntry } from "./stream.ts";
import { sequenceEvents, type SequencedEvent } from "../../hub/index.ts";

const delta = (text: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: text }) as BaseEvent;
const finished: BaseEvent = { type: EventType.RUN_FINISHED, threadId: "t1", runId: "r1" } as BaseEvent;

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

type Entry = [id: string, fields: string[]];

/**
 * One run's Redis stream in memory, as XREAD BLOCK and XRANGE read it, and the
 * connections a hub borrows for it, counted. `down` makes every call fail, as
 * ioredis fails it once its command timeout or retries are spent.
 */
function fakeRedis(options: { max?: number } = {}) {
  const entries: Entry[] = [];
  const waiting = new Set<() => void>();
  const counts = { borrowed: 0, open: 0, maxOpen: 0, reads: 0, ranges: 0 };
  let down = false;
  const failIfDown = () => (down ? Promise.reject(new Error("Command timed out")) : undefined);
  const after = (id: string) => entries.filter(([entry]) => Number.parseInt(entry, 10) > Number.parseInt(id, 10));
  const connection = () =>
    ({
      async xread(...args: (string | number)[]) {
        counts.reads++;
        await failIfDown();
        const id = String(args.at(-1));
        const block = Number(args[args.indexOf("BLOCK") + 1]);
        if (after(id).length === 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(done, block);
            function done() {
              clearTimeout(timer);
              waiting.delete(done);
              resolve();
            }
            waiting.add(done);
          });
          await failIfDown();
        }
        const found = after(id);
        return found.length === 0 ? null : [["key", found]];
      },
      disconnect() {},
      status: "ready",
    }) as unknown as Redis;
  const connections: ReadConnections = {
    borrow() {
      if (counts.open >= (options.max ?? Infinity)) return undefined;
      counts.borrowed++;
      counts.open++;
      counts.maxOpen = Math.max(counts.maxOpen, counts.open);
      return connection();
    },
    release() {
      counts.open--;
    },
    close() {},
  };
  const main = {
    async xrange(_key: string, start: string, end: string) {
      counts.ranges++;
      await failIfDown();
      return entries.filter(([id]) => Number.parseInt(id, 10) >= Number.parseInt(start, 10) && Number.parseInt(id, 10) <= Number.parseInt(end, 10));
    },
    async ping() {
      await failIfDown();
      return "PONG";
    },
  } as unknown as Redis;
  return {
    connections,
    main,
    counts,
    /** What the executing instance publishes. */
    publish(events: SequencedEvent[]) {
      for (const event of events) entries.push([`${event.seq}-0`, ["e", encodeEntry(event)]]);
      for (const wake of [...waiting]) wake();
    },
    /** Trims the stream's oldest entries, as MAXLEN does. */
    trim(keep: number) {
      entries.splice(0, Math.max(0, entries.length - keep));
    },
    setDown(value: boolean) {
      down = value;
      for (const wake of [...waiting]) wake();
    },
  };
}

function followersOn(store: RunStore, redis: ReturnType<typeof fakeRedis>) {
  const health = watchRedisHealth({ probe: () => redis.main.ping(), probeMs: 20 });
  return createRemoteFollowers({ store, redis: redis.main, connections: redis.connections, health, keyOf: (runId) => `tether:run:${runId}` });
}

function collect(source: AsyncIterable<SequencedEvent[]>) {
  const seen: SequencedEvent[] = [];
  const done = (async () => {
    for await (const batch of source) seen.push(...batch);
    return seen;
  })();
  return { seen, done, seqs: () => seen.map((event) => event.seq) };
}

const range = (from: number, through: number) => Array.from({ length: through - from + 1 }, (_, index) => from + index);

describe("createRemoteFollowers", () => {
  it("gets a run's events from the store while its stream stays silent and the run goes on, not only once it ended", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const redis = fakeRedis();
    const following = collect(followersOn(store, redis).follow("r1", 0));
    await expect.poll(following.seqs, { timeout: 10_000 }).toEqual([1, 2, 3]);
    await store.appendEvents("r1", sequenceEvents([delta("c")], 4));
    await expect.poll(following.seqs, { timeout: 10_000 }).toEqual([1, 2, 3, 4]);
    await store.finishRun({ runId: "r1", status: "finished", events: sequenceEvents([finished], 5) });
    expect((await following.done).map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it("follows a run of another instance from the store alone while Redis is down, to its end, missing and repeating nothing", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const redis = fakeRedis();
    redis.setDown(true);
    const following = collect(followersOn(store, redis).follow("r1", 1));
    await expect.poll(following.seqs).toEqual([2, 3]);
    await store.appendEvents("r1", sequenceEvents([delta("c")], 4));
    await store.finishRun({ runId: "r1", status: "finished", events: sequenceEvents([finished], 5) });
    expect((await following.done).map((event) => event.seq)).toEqual([2, 3, 4, 5]);
  });

  it("goes back to the stream once Redis answers again", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const redis = fakeRedis();
    redis.setDown(true);
    const following = collect(followersOn(store, redis).follow("r1", 0));
    await expect.poll(following.seqs).toEqual([1, 2, 3]);
    const readsWhileDown = redis.counts.reads;
    redis.setDown(false);
    // Published but not stored: only the stream can give it.
    redis.publish(sequenceEvents([delta("c")], 4));
    await expect.poll(following.seqs, { timeout: 10_000 }).toEqual([1, 2, 3, 4]);
    expect(redis.counts.reads).toBeGreaterThan(readsWhileDown);
    await store.appendEvents("r1", sequenceEvents([delta("c")], 4));
    await store.finishRun({ runId: "r1", status: "finished", events: sequenceEvents([finished], 5) });
    redis.publish(sequenceEvents([finished], 5));
    expect((await following.done).map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it("reads a run once for all its followers here, each from its own cursor, late ones getting what they missed from the stream", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const redis = fakeRedis();
    redis.publish(sequenceEvents([delta("a"), delta("b")], 2));
    const followers = followersOn(store, redis);
    const early = Array.from({ length: 50 }, () => collect(followers.follow("r1", 1)));
    await expect.poll(() => early.every((follower) => follower.seen.length === 2)).toBe(true);
    // Published only (not stored yet), as a live run's newest events are.
    redis.publish(
      sequenceEvents(
        range(4, 40).map((index) => delta(`${index}`)),
        4,
      ),
    );
    await expect.poll(() => early.every((follower) => follower.seen.length === 39)).toBe(true);
    // A reconnect holding event 10, and one holding event 40, join the running reader.
    const late = collect(followers.follow("r1", 10));
    const current = collect(followers.follow("r1", 40));
    redis.publish(sequenceEvents([delta("last")], 41));
    await store.appendEvents("r1", sequenceEvents([...range(4, 40).map((index) => delta(`${index}`)), delta("last")], 4));
    await store.finishRun({ runId: "r1", status: "finished", events: sequenceEvents([finished], 42) });
    redis.publish(sequenceEvents([finished], 42));

    for (const follower of early) expect((await follower.done).map((event) => event.seq)).toEqual(range(2, 42));
    expect((await late.done).map((event) => event.seq)).toEqual(range(11, 42));
    expect((await current.done).map((event) => event.seq)).toEqual([41, 42]);
    expect(redis.counts.borrowed).toBe(1);
    expect(followers.readers).toBe(0);
  });

  it("lets a follower that stops reading fall behind without holding the others back, then gives it every event once, in order", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const redis = fakeRedis();
    const followers = followersOn(store, redis);
    const fast = collect(followers.follow("r1", 0));
    const slow = followers.follow("r1", 0)[Symbol.asyncIterator]();
    const slowSeen: SequencedEvent[] = [...((await slow.next()).value as SequencedEvent[])];
    // Far more than a follower may have waiting (MAX_QUEUED_EVENTS), published while the slow one reads nothing.
    const many = range(4, 10_003).map((index) => delta(`${index}`));
    redis.publish(sequenceEvents(many, 4));
    await expect.poll(() => fast.seen.length, { timeout: 10_000 }).toBe(10_003);
    await store.appendEvents("r1", sequenceEvents(many, 4));
    await store.finishRun({ runId: "r1", status: "finished", events: sequenceEvents([finished], 10_004) });
    redis.publish(sequenceEvents([finished], 10_004));

    for (let next = await slow.next(); !next.done; next = await slow.next()) slowSeen.push(...next.value);
    expect(slowSeen.map((event) => event.seq)).toEqual(range(1, 10_004));
    // It read what it missed from the stream, on the side, not through a queue of its own.
    expect(redis.counts.ranges).toBeGreaterThan(0);
    expect((await fast.done).map((event) => event.seq)).toEqual(range(1, 10_004));
  });

  it("gives a late follower what the stream no longer has (trimmed) from the store", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const redis = fakeRedis();
    const followers = followersOn(store, redis);
    const first = collect(followers.follow("r1", 0));
    await store.appendEvents(
      "r1",
      sequenceEvents(
        range(4, 30).map((index) => delta(`${index}`)),
        4,
      ),
    );
    redis.publish(
      sequenceEvents(
        range(4, 30).map((index) => delta(`${index}`)),
        4,
      ),
    );
    await expect.poll(() => first.seen.length).toBe(30);
    redis.trim(5);
    const late = collect(followers.follow("r1", 3));
    await store.finishRun({ runId: "r1", status: "finished", events: sequenceEvents([finished], 31) });
    redis.publish(sequenceEvents([finished], 31));
    expect((await late.done).map((event) => event.seq)).toEqual(range(4, 31));
    expect((await first.done).map((event) => event.seq)).toEqual(range(1, 31));
  });

  it("serves followers from the store when every read connection is in use (the cap), and opens none past it", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const redis = fakeRedis({ max: 0 });
    const following = collect(followersOn(store, redis).follow("r1", 0));
    await expect.poll(following.seqs).toEqual([1, 2, 3]);
    await store.finishRun({ runId: "r1", status: "finished", events: sequenceEvents([finished], 4) });
    expect((await following.done).map((event) => event.seq)).toEqual([1, 2, 3, 4]);
    expect(redis.counts.borrowed).toBe(0);
  });

  it("stops the run's reader and gives its connection back when the last follower goes away", async () => {
    const store = createMemoryRunStore();
    await runningRun(store);
    const redis = fakeRedis();
    const followers = followersOn(store, redis);
    const controllers = [new AbortController(), new AbortController()];
    const following = controllers.map((controller) => collect(followers.follow("r1", 0, controller.signal)));
    redis.publish(sequenceEvents([delta("a"), delta("b")], 2));
    await expect.poll(() => following.every((follower) => follower.seen.length === 3)).toBe(true);
    controllers[0]!.abort();
    await following[0]!.done;
    expect(followers.readers).toBe(1);
    controllers[1]!.abort();
    await following[1]!.done;
    // A read under way ends within its BLOCK; then the reader stops.
    await expect.poll(() => followers.readers, { timeout: 10_000 }).toBe(0);
    expect(redis.counts.open).toBe(0);
  });
});
