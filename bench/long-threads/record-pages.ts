/**
 * What reading a run's record costs per page when the run's request is large:
 * a stateless run whose request carries about 700 KB of history (with a
 * secret-shaped string in every message, so redaction has work to do), its
 * record read 16 pages at a time, 2 events each. "before": every page
 * redacts and caps the whole request again, as it did; "after": the request
 * part is kept per run after the first read (record-input-cache.ts). Prints
 * the time per page of each, and after / before, from alternating rounds.
 *
 *   npx tsx --conditions=tether-source bench/long-threads/record-pages.ts
 *
 * Not part of `npm test`: the numbers depend on the machine.
 */
import { EventType, type BaseEvent, type Message } from "@ag-ui/core";
import { assembleRecord } from "@tether-agent/tether/internal";
import { createRecordInputCache } from "@tether-agent/tether/internal";
import type { RecordSources } from "@tether-agent/tether/internal";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";

const REQUEST_KB = Number(process.env.REQUEST_KB ?? 700);
const PAGES = 16;
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const store = createSqliteRunStore({ filename: ":memory:" });
const messages: Message[] = [];
for (let index = 0; JSON.stringify(messages).length < REQUEST_KB * 1024; index++) {
  const words = `message ${index}: the sauce needs api_key=sk-live-${index}abcdefabcdef and ${"some more words about cooking ".repeat(60)}`;
  messages.push(index % 2 === 0 ? { id: `u${index}`, role: "user", content: words } : { id: `a${index}`, role: "assistant", content: words });
}
const runId = "r1";
const event = (seq: number, body: Record<string, unknown>) => ({ seq, event: { ...body, threadId: "t1", runId } as unknown as BaseEvent });
await store.beginRun({
  thread: { threadId: "t1", agentId: "recipes", ownerId: "sam" },
  run: { runId, userId: "sam", input: { threadId: "t1", runId, state: {}, messages, tools: [], context: [], forwardedProps: {} }, log: [] },
  events: [event(1, { type: EventType.RUN_STARTED, input: { messages: messages.slice(-1) } })],
  messages,
  resolvedToolCallIds: [],
});
const events = Array.from({ length: PAGES * 2 }, (_, index) =>
  event(index + 2, { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m", delta: `word ${index} ` }),
);
await store.finishRun({ runId, status: "finished", outcome: { type: "success" }, events: [...events, event(PAGES * 2 + 2, { type: EventType.RUN_FINISHED })] });
const run = (await store.getRun(runId))!;

/** Milliseconds each page took, first to last. */
async function readPages(sources: RecordSources): Promise<number[]> {
  const times: number[] = [];
  for (let page = 0; page < PAGES; page++) {
    const started = performance.now();
    await assembleRecord(sources, run, { afterSeq: page * 2, limit: 2, maxChars: 1024 * 1024 });
    times.push(performance.now() - started);
  }
  return times;
}

const base = { store, isLive: () => false, generatedUi: () => false };
const rounds = { before: [] as number[][], after: [] as number[][] };
await readPages(base); // warm up both paths' code
for (let round = 0; round < ROUNDS; round++) {
  rounds.before.push(await readPages(base));
  rounds.after.push(await readPages({ ...base, recordInputs: createRecordInputCache() }));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const before = median(rounds.before.flat());
const first = median(rounds.after.map((times) => times[0]!));
const later = median(rounds.after.flatMap((times) => times.slice(1)));
console.log(`request ${(JSON.stringify(messages).length / 1024).toFixed(0)} KB, ${PAGES} pages of 2 events, ${ROUNDS} rounds (medians)`);
console.log(`before: ${before.toFixed(2)} ms a page (every page redacts the whole request and reads the thread)`);
console.log(`after:  first page ${first.toFixed(2)} ms, each later page ${later.toFixed(2)} ms`);
console.log(`after / before: first page ${(first / before).toFixed(3)}×, later pages ${(later / before).toFixed(3)}×`);
await store.close();
