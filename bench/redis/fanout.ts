/**
 * What Redis adds to each live event's way to a client on another instance.
 * One run executes on hub A; one follower reads it through A (in memory, the
 * baseline) and one through B (A publishes to Redis, B reads the stream).
 * Prints p50 and p99 of the time from emit to arrival for both, the latency
 * Redis adds (B − A per event), and B's p50 as a ratio of A's.
 *
 *   TETHER_BENCH_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/redis/fanout.ts
 *
 * Not part of `npm test`: the numbers depend on the machine.
 */
import { performance } from "node:perf_hooks";
import { EventType, type BaseEvent } from "@ag-ui/core";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createRunHub, sequenceEvents, type SequencedEvent } from "@tether-agent/tether/internal";
import { createRedisHub } from "@tether-agent/tether/redis";

const url = process.env.TETHER_BENCH_REDIS_URL ?? process.env.TETHER_REDIS_URL ?? "redis://127.0.0.1:6379";
const EVENTS = Number(process.env.EVENTS ?? 3000);
/** A pause between events, as a model streams tokens: each event travels on its own. */
const GAP_MS = Number(process.env.GAP_MS ?? 1);

const store = createMemoryRunStore();
const prefix = `tether-bench:${process.pid}:`;
const a = await createRedisHub({ local: createRunHub({ store }), store, url, prefix });
const b = await createRedisHub({ local: createRunHub({ store }), store, url, prefix });

const runId = `bench-${Date.now()}`;
const threadId = `t-${runId}`;
const first = sequenceEvents([{ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent], 1);
await store.beginRun({
  thread: { threadId, agentId: "bench", ownerId: "bench" },
  run: { runId, userId: "bench", input: {}, log: [] },
  events: first,
  messages: [],
  resolvedToolCallIds: [],
});
const channel = a.open({ runId, threadId, stored: first });

const sentAt = new Map<number, number>();
const arrived = { local: new Map<number, number>(), redis: new Map<number, number>() };
async function read(source: AsyncIterable<SequencedEvent[]>, into: Map<number, number>) {
  for await (const batch of source) {
    const now = performance.now();
    for (const event of batch) into.set(event.seq, now);
  }
}
const local = read(a.follow(runId, 1), arrived.local);
const remote = read(b.follow(runId, 1), arrived.redis);

for (let index = 0; index < EVENTS; index++) {
  channel.emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: `token ${index} ` } as BaseEvent);
  sentAt.set(a.lastSeq(runId)!, performance.now());
  await new Promise((resolve) => setTimeout(resolve, GAP_MS));
}
await channel.end({ type: EventType.RUN_FINISHED, threadId, runId } as BaseEvent, { status: "finished", outcome: { type: "success" } });
await Promise.all([local, remote]);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const delays = { local: [] as number[], redis: [] as number[], added: [] as number[] };
for (const [seq, sent] of sentAt) {
  const here = arrived.local.get(seq)! - sent;
  const there = arrived.redis.get(seq)! - sent;
  delays.local.push(here);
  delays.redis.push(there);
  delays.added.push(there - here);
}
const ms = (value: number) => `${value.toFixed(3)} ms`;
console.log(`Redis fan-out, ${EVENTS} events, one every ${GAP_MS} ms (${url.replace(/\/\/[^@]*@/, "//")})`);
console.log(`  in-process follower (baseline)  p50 ${ms(quantile(delays.local, 0.5))}  p99 ${ms(quantile(delays.local, 0.99))}`);
console.log(`  follower on another instance    p50 ${ms(quantile(delays.redis, 0.5))}  p99 ${ms(quantile(delays.redis, 0.99))}`);
console.log(`  added by Redis, per event       p50 ${ms(quantile(delays.added, 0.5))}  p99 ${ms(quantile(delays.added, 0.99))}`);
console.log(`  ratio, other instance / in-process at p50: ${(quantile(delays.redis, 0.5) / quantile(delays.local, 0.5)).toFixed(1)}x`);
await a.close();
await b.close();
await store.close();
