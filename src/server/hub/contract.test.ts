import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType, type BaseEvent } from "@ag-ui/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedPostgres, reachablePostgres, serverSchemas } from "../../../test/helpers/postgres.ts";
import { dropRedisPrefix, reachableRedis, uniqueRedisPrefix } from "../../../test/helpers/redis.ts";
import { createPgRunStore } from "../adapters/pg/index.ts";
import type { RunStore } from "../store/index.ts";
import { createSqliteRunStore } from "../adapters/sqlite/index.ts";
import { createRunHub, sequenceEvents, type RunChannel, type RunHub, type SequencedEvent } from "./hub.ts";
import { createRedisHub } from "../adapters/redis/index.ts";

/**
 * What every RunHub must do for followers, whichever instance they are on:
 * each event once, in order, from any point a client may hold, through the
 * terminal one. Run against the in-process hub (one process: the producer is
 * the follower's hub) and the Redis hub (two instances on one Redis and one
 * PostgreSQL: runs execute on A and are followed through B).
 */

interface Instances {
  /** The hub the run executes on, and its store. */
  producer: RunHub;
  store: RunStore;
  /** The hub a client follows through. */
  follower: RunHub;
  close(): Promise<void>;
}

interface Backend {
  name: string;
  skipped?: string;
  start(): Promise<Instances>;
}

const folder = mkdtempSync(join(tmpdir(), "tether-hub-contract-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const redis = await reachableRedis();
const postgres = await reachablePostgres();
const embedded = embeddedPostgres();
afterAll(() => embedded.close());
const schemas = "url" in postgres ? serverSchemas(postgres.url) : undefined;
afterAll(() => schemas?.dropAll());
const prefix = uniqueRedisPrefix("hub");
afterAll(() => ("url" in redis ? dropRedisPrefix(redis.url, prefix) : undefined));

const backends: Backend[] = [
  {
    name: "in-process",
    async start() {
      const store = createSqliteRunStore({ filename: join(folder, `${Math.random()}`, "tether.db") });
      const hub = createRunHub({ store });
      return { producer: hub, follower: hub, store, close: async () => (await hub.close(), await store.close()) };
    },
  },
  {
    name: `Redis, two instances on ${"url" in postgres ? "PostgreSQL" : "PGlite"}`,
    ...("skipped" in redis ? { skipped: redis.skipped } : {}),
    async start() {
      const url = (redis as { url: string }).url;
      // Two stores on one database, as two processes have; PGlite has one session, so one store serves both there.
      const open = async () =>
        "url" in postgres
          ? createPgRunStore({ connectionString: postgres.url, schema: schemaName })
          : createPgRunStore({ pglite: await embedded.database(), schema: schemaName });
      const schemaName = schemas?.make("hub") ?? `hub_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
      const storeA = await open();
      const storeB = "url" in postgres ? await open() : storeA;
      const producer = await createRedisHub({ local: createRunHub({ store: storeA }), store: storeA, url, prefix });
      const follower = await createRedisHub({ local: createRunHub({ store: storeB }), store: storeB, url, prefix });
      return {
        producer,
        follower,
        store: storeA,
        async close() {
          await producer.close();
          await follower.close();
          await storeA.close();
          if (storeB !== storeA) await storeB.close();
        },
      };
    },
  },
];

const delta = (text: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: text }) as BaseEvent;
const finished = (runId: string): BaseEvent => ({ type: EventType.RUN_FINISHED, threadId: `t-${runId}`, runId }) as BaseEvent;
const nextTick = () => new Promise((resolve) => setImmediate(resolve));

let runs = 0;
async function openRun(instances: Instances): Promise<{ runId: string; channel: RunChannel }> {
  const runId = `r${++runs}-${process.pid}-${Math.floor(Math.random() * 1e9)}`;
  const threadId = `t-${runId}`;
  const first = sequenceEvents([{ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent], 1);
  await instances.store.beginRun({
    thread: { threadId, agentId: "a", ownerId: "kim" },
    run: { runId, userId: "kim", input: {}, log: [] },
    events: first,
    messages: [],
    resolvedToolCallIds: [],
  });
  return { runId, channel: instances.producer.open({ runId, threadId, stored: first }) };
}

/** Emits `count` deltas, a few per turn of the event loop, as a model streams tokens. */
async function emit(channel: RunChannel, count: number, perTick = 20): Promise<void> {
  for (let index = 0; index < count; index++) {
    channel.emit(delta(`${index}`));
    if (index % perTick === perTick - 1) await nextTick();
  }
  await nextTick();
}

async function collect(source: AsyncIterable<SequencedEvent[]>): Promise<SequencedEvent[]> {
  const seen: SequencedEvent[] = [];
  for await (const batch of source) seen.push(...batch);
  return seen;
}

/** Waits until the follower has seen at least `seq`, reading as it goes. */
async function readUntil(iterator: AsyncIterator<SequencedEvent[]>, seen: SequencedEvent[], seq: number): Promise<void> {
  while ((seen.at(-1)?.seq ?? 0) < seq) {
    const next = await iterator.next();
    if (next.done) return;
    seen.push(...next.value);
  }
}

const range = (from: number, through: number) => Array.from({ length: through - from + 1 }, (_, index) => from + index);
const seqs = (events: SequencedEvent[]) => events.map((event) => event.seq);

describe.each(backends)("RunHub contract: $name", (backend) => {
  if (backend.skipped) console.info(`RunHub contract on ${backend.name}: skipped. ${backend.skipped}`);
  let instances: Instances;
  beforeAll(async () => {
    if (!backend.skipped) instances = await backend.start();
  });
  afterAll(async () => {
    if (!backend.skipped) await instances.close();
  });

  it.skipIf(backend.skipped)("gives a follower from the start every event once, in order, through the terminal one", async () => {
    const { runId, channel } = await openRun(instances);
    const following = collect(instances.follower.follow(runId, 0));
    await emit(channel, 100);
    await channel.end(finished(runId), { status: "finished", outcome: { type: "success" } });
    const seen = await following;
    expect(seqs(seen)).toEqual(range(1, 102));
    expect(seen.at(-1)!.event.type).toBe(EventType.RUN_FINISHED);
    expect(seen[1]!.event).toMatchObject({ delta: "0" });
  });

  it.skipIf(backend.skipped)("gives a reconnect from the middle of a live run exactly the events after the one it holds", async () => {
    const { runId, channel } = await openRun(instances);
    const first = instances.follower.follow(runId, 0)[Symbol.asyncIterator]();
    const seen: SequencedEvent[] = [];
    await emit(channel, 50);
    await readUntil(first, seen, 31);
    await first.return?.();
    // The client held event 30 when its connection broke.
    const resumed = collect(instances.follower.follow(runId, 30));
    await emit(channel, 50);
    await channel.end(finished(runId), { status: "finished", outcome: { type: "success" } });
    expect(seqs(await resumed)).toEqual(range(31, 102));
  });

  it.skipIf(backend.skipped)("reads a run that ended from the store, from any event on", async () => {
    const { runId, channel } = await openRun(instances);
    await emit(channel, 20);
    await channel.end(finished(runId), { status: "finished", outcome: { type: "success" } });
    expect(seqs(await collect(instances.follower.follow(runId, 10)))).toEqual(range(11, 22));
    expect(seqs(await collect(instances.follower.follow(runId, 22)))).toEqual([]);
  });

  it.skipIf(backend.skipped)("says through tail how far a live run went and that it goes on, and that it ended once it did", async () => {
    const { runId, channel } = await openRun(instances);
    const iterator = instances.follower.follow(runId, 0)[Symbol.asyncIterator]();
    const seen: SequencedEvent[] = [];
    await emit(channel, 10);
    await readUntil(iterator, seen, 11);
    const going = await instances.follower.tail(runId);
    expect(going).toMatchObject({ live: true });
    expect(going!.lastSeq).toBeGreaterThanOrEqual(11);
    await channel.end(finished(runId), { status: "finished", outcome: { type: "success" } });
    await readUntil(iterator, seen, 12);
    expect(seen.at(-1)!.event.type).toBe(EventType.RUN_FINISHED);
    const ended = await instances.follower.tail(runId);
    expect(ended?.live ?? false).toBe(false);
  });

  it.skipIf(backend.skipped)("has no gap and no duplicate at the seam between stored and live events while tokens keep coming", async () => {
    const { runId, channel } = await openRun(instances);
    const followers: { from: number; events: Promise<SequencedEvent[]> }[] = [{ from: 0, events: collect(instances.follower.follow(runId, 0)) }];
    for (let burst = 0; burst < 6; burst++) {
      await emit(channel, 500, 25);
      // A client reconnects holding the last event sent so far, or one a little before it.
      const from = Math.max(0, ((await instances.follower.tail(runId))?.lastSeq ?? 0) - burst * 7);
      followers.push({ from, events: collect(instances.follower.follow(runId, from)) });
    }
    await channel.end(finished(runId), { status: "finished", outcome: { type: "success" } });
    const last = 1 + 6 * 500 + 1;
    for (const follower of followers) expect(seqs(await follower.events)).toEqual(range(follower.from + 1, last));
  });

  it.skipIf(backend.skipped)("stops a follower whose client went away, while the run goes on", async () => {
    const { runId, channel } = await openRun(instances);
    const controller = new AbortController();
    const following = collect(instances.follower.follow(runId, 1, controller.signal));
    await emit(channel, 5);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const seen = await following;
    expect(seen.every((event) => event.seq > 1)).toBe(true);
    await channel.end(finished(runId), { status: "finished", outcome: { type: "success" } });
  });
});
