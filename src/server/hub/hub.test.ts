import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType, type BaseEvent } from "@ag-ui/core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createSqliteRunStore } from "../adapters/sqlite/index.ts";
import { UNSTORED_EVENT_LIMIT, type RunStore } from "../store/index.ts";
import { createRunHub, sequenceEvents, type SequencedEvent } from "./hub.ts";

const folder = mkdtempSync(join(tmpdir(), "tether-hub-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const started = (runId: string): BaseEvent => ({ type: EventType.RUN_STARTED, threadId: "t1", runId }) as BaseEvent;
const delta = (text: string): BaseEvent => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: text }) as BaseEvent;

/** The store, but page writes wait until `release` is called: events are out, not yet stored, as in the first milliseconds after they are sent. */
function slowPages(store: RunStore) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const slow = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as (...args: unknown[]) => Promise<unknown>;
      return key === "appendEvents" ? async (...args: unknown[]) => (await gate, value.apply(target, args)) : value;
    },
  });
  return { store: slow, release };
}

/** The store, but each page write waits until it is released, one by one; records the size of each. */
function heldPages(store: RunStore) {
  const writes: Array<{ size: number; release: () => void; done: Promise<void> }> = [];
  const held = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as (...args: unknown[]) => Promise<void>;
      if (key !== "appendEvents") return value;
      return (runId: string, events: SequencedEvent[]) => {
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const done = gate.then(() => value.call(target, runId, events));
        writes.push({ size: events.length, release, done });
        return done;
      };
    },
  });
  return { store: held, writes };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

async function begin(store: RunStore, runId: string): Promise<SequencedEvent[]> {
  const first = sequenceEvents([started(runId)], 1);
  await store.beginRun({
    thread: { threadId: "t1", agentId: "a", ownerId: "kim" },
    run: { runId, userId: "kim", input: {}, log: [] },
    events: first,
    messages: [],
    resolvedToolCallIds: [],
  });
  return first;
}

async function take(source: AsyncIterable<SequencedEvent[]>, count: number): Promise<SequencedEvent[]> {
  const taken: SequencedEvent[] = [];
  for await (const batch of source) {
    taken.push(...batch);
    if (taken.length >= count) break;
  }
  return taken;
}

describe("createRunHub", () => {
  it("never lets followers get more than UNSTORED_EVENT_LIMIT events ahead of the store, and lets them go on once it catches up", async () => {
    const disk = createSqliteRunStore({ filename: join(folder, "ahead", "tether.db") });
    const { store, release } = slowPages(disk);
    const hub = createRunHub({ store });
    const channel = hub.open({ runId: "r1", threadId: "t1", stored: await begin(disk, "r1") });
    for (let index = 0; index < UNSTORED_EVENT_LIMIT + 50; index++) channel.emit(delta(`${index}`));

    const controller = new AbortController();
    const follower = hub.follow("r1", 0, controller.signal)[Symbol.asyncIterator]();
    const seen: SequencedEvent[] = [];
    while (seen.length < 1 + UNSTORED_EVENT_LIMIT) seen.push(...(await follower.next()).value);
    // RUN_STARTED is stored with the run: the follower gets it and UNSTORED_EVENT_LIMIT more, and waits.
    expect(seen.at(-1)!.seq).toBe(1 + UNSTORED_EVENT_LIMIT);
    const waiting = follower.next();
    expect(await Promise.race([waiting.then(() => "moved"), new Promise((resolve) => setTimeout(resolve, 100, "waits"))])).toBe("waits");

    release();
    expect((await waiting).value.at(-1).seq).toBe(1 + UNSTORED_EVENT_LIMIT + 50);
    controller.abort();
    await channel.end({ type: EventType.RUN_FINISHED, threadId: "t1", runId: "r1" } as BaseEvent, { status: "finished", outcome: { type: "success" } });
    await disk.close();
  });

  it("hands a run's events to its followers as soon as the work that emitted them is done, before the next callback of the same turn of the event loop", async () => {
    const disk = createSqliteRunStore({ filename: join(folder, "same-turn", "tether.db") });
    const hub = createRunHub({ store: disk });
    const channel = hub.open({ runId: "r1", threadId: "t1", stored: await begin(disk, "r1") });
    const controller = new AbortController();
    const follower = hub.follow("r1", 1, controller.signal)[Symbol.asyncIterator]();
    const order: string[] = [];
    const delivered = follower.next().then(({ value }) => order.push(`delivered ${(value as SequencedEvent[]).map((event) => event.seq).join(",")}`));
    // Two callbacks of one turn, as two model streams' reads are under load: the first emits a token, and its
    // promise chain another four hops later (still one batch); the second is some other stream's. Before, the batch waited for the turn's end.
    await new Promise<void>((resolve) => {
      setTimeout(() => {
        channel.emit(delta("a"));
        void (async () => {
          for (let hop = 0; hop < 4; hop++) await Promise.resolve();
          channel.emit(delta("b"));
        })();
      }, 5);
      setTimeout(() => {
        order.push("next callback");
        resolve();
      }, 5);
    });
    await delivered;
    expect(order).toEqual(["delivered 2,3", "next callback"]);
    controller.abort();
    await disk.close();
  });

  it("keeps one page write on its way at a time: a full batch waits for it and goes next, whole, instead of a small one queued behind it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); // the 100 ms write of a short batch, stepped by hand
    try {
      const disk = createSqliteRunStore({ filename: join(folder, "one-write", "tether.db") });
      const { store, writes } = heldPages(disk);
      const hub = createRunHub({ store });
      const channel = hub.open({ runId: "r1", threadId: "t1", stored: await begin(disk, "r1") });
      const emit = async (count: number) => {
        for (let index = 0; index < count; index++) channel.emit(delta("x"));
        await turn();
      };
      const release = async (index: number) => {
        writes[index]!.release();
        await writes[index]!.done;
        await turn();
      };

      await emit(2000); // a full batch: written at once
      await emit(2000); // full again while the first is on its way: waits for it
      await emit(100);
      expect(writes.map((write) => write.size)).toEqual([2000]);
      await release(0); // the 2,100 that came meanwhile go next, as one write
      await emit(100);
      await release(1); // the 100 that came meanwhile are not a full batch: they wait for the timer
      expect(writes.map((write) => write.size)).toEqual([2000, 2100]);

      await vi.advanceTimersByTimeAsync(100);
      expect(writes.map((write) => write.size)).toEqual([2000, 2100, 100]);
      await release(2);
      expect((await disk.readEvents("r1")).length).toBe(1 + 4200);
      await channel.end({ type: EventType.RUN_FINISHED, threadId: "t1", runId: "r1" } as BaseEvent, { status: "finished", outcome: { type: "success" } });
      await disk.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("stores a run's events within PERSIST_AFTER_MS again after a page write failed and its retry went through, those that came during the retry too", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); // the 100 ms write and the 50 ms retry, stepped by hand
    try {
      const disk = createSqliteRunStore({ filename: join(folder, "retried", "tether.db") });
      const { store: held, writes } = heldPages(disk);
      let failures = 1;
      const store = new Proxy(held, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as (...args: unknown[]) => Promise<void>;
          if (key !== "appendEvents") return value;
          return (...args: unknown[]) => (failures-- > 0 ? Promise.reject(new Error("store down")) : value.apply(target, args));
        },
      });
      const hub = createRunHub({ store, onPersistError: () => {} });
      const channel = hub.open({ runId: "r1", threadId: "t1", stored: await begin(disk, "r1") });
      const emit = async (text: string) => {
        channel.emit(delta(text));
        await turn();
      };

      await emit("a");
      await vi.advanceTimersByTimeAsync(100); // the write fails
      await vi.advanceTimersByTimeAsync(50); // its retry is on its way
      expect(writes.map((write) => write.size)).toEqual([1]);
      await emit("b"); // while the retry is on its way
      writes[0]!.release();
      await writes[0]!.done;
      await turn();
      await vi.advanceTimersByTimeAsync(100);
      expect(writes.map((write) => write.size)).toEqual([1, 1]);
      writes[1]!.release();
      await writes[1]!.done;

      await emit("c"); // a quiet stream after the store came back
      await vi.advanceTimersByTimeAsync(100);
      expect(writes.map((write) => write.size)).toEqual([1, 1, 1]);
      writes[2]!.release();
      await writes[2]!.done;
      expect((await disk.readEvents("r1")).map((stored) => stored.seq)).toEqual([1, 2, 3, 4]);
      await channel.end({ type: EventType.RUN_FINISHED, threadId: "t1", runId: "r1" } as BaseEvent, { status: "finished", outcome: { type: "success" } });
      await disk.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("schedules no page write once the hub is closing, so a closed store is not written to and no timer keeps the process up", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const disk = createSqliteRunStore({ filename: join(folder, "closed", "tether.db") });
      const { store, writes } = heldPages(disk);
      const hub = createRunHub({ store });
      const channel = hub.open({ runId: "r1", threadId: "t1", stored: await begin(disk, "r1") });
      await hub.close();
      channel.emit(delta("late"));
      await turn();
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(1000);
      expect(writes).toEqual([]);
      await disk.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("ends a run that died with events out but not stored past every id a client may hold, saying which were lost", async () => {
    const filename = join(folder, "crash", "tether.db");
    const disk = createSqliteRunStore({ filename });
    const hub = createRunHub({ store: slowPages(disk).store });
    const channel = hub.open({ runId: "r1", threadId: "t1", stored: await begin(disk, "r1") });
    for (const text of ["Open", "ing", " the", " list"]) channel.emit(delta(text));
    const held = await take(hub.follow("r1", 0), 5);
    expect(held.at(-1)!.seq).toBe(5);

    // The process dies here; the next one on the same file recovers the run.
    const restarted = createSqliteRunStore({ filename, exclusive: false });
    expect(await restarted.recoverInterruptedRuns()).toBe(1);
    const resumed = await restarted.readEvents("r1", held.at(-1)!.seq);

    expect(resumed.map((stored) => stored.event.type)).toEqual([EventType.MESSAGES_SNAPSHOT, EventType.RUN_ERROR]);
    expect(resumed[0]!.seq).toBeGreaterThan(held.at(-1)!.seq);
    expect(resumed[1]!.event).toMatchObject({
      code: "instance_lost",
      message: expect.stringContaining("were not saved"),
      metadata: { tether: { lostEvents: { afterSeq: 1, throughSeq: 1 + UNSTORED_EVENT_LIMIT } } },
    });
    await restarted.close();
    await disk.close();
  });
});
