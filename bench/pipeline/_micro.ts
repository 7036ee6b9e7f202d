import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType, type BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { createSqliteRunStore } from "tether/server";
import { eventStreamResponse } from "../../src/server/http/event-stream.ts";
import { createRunHub } from "../../src/server/run/hub.ts";
import { streamModelStep } from "../../src/server/run/model-step.ts";
import { createMemoryRunStore } from "tether/server";
import { createStubModel } from "./stub-model.ts";

const N = 100_000;
const runId = "bench-run-x";
const messageId = "msg_abcdefghijklmnop";
const events = () => Array.from({ length: N }, (_, i) => ({ seq: i + 1, event: { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: "tok " } as BaseEvent }));
const time = async (label: string, fn: () => unknown) => {
  const rounds: number[] = [];
  for (let i = 0; i < 4; i++) { const s = performance.now(); await fn(); rounds.push(performance.now() - s); }
  console.log(`${label.padEnd(58)} ${rounds.map((r) => r.toFixed(0)).join(" / ")} ms  (per event ${(rounds.slice(1).reduce((a, b) => a + b) / 3 / N * 1000).toFixed(2)} µs)`);
};

// 1. model loop: streamModelStep with emit doing nothing.
const model = createStubModel(N);
await time("streamModelStep, no-op emit", () => streamModelStep({ model, prompt: [], tools: [], signal: new AbortController().signal, emit() {}, newMessageId: () => messageId, newToolCallId: () => "c", usedToolCallIds: new Set() }));
// 1b. stub stream alone.
await time("stub model stream read alone", async () => { const { stream } = await model.doStream({ prompt: [] }); const r = stream.getReader(); while (!(await r.read()).done); });

// 2. SQLite appendEvents of one 100k batch.
const dir = mkdtempSync(join(tmpdir(), "tether-micro-"));
const store = createSqliteRunStore({ filename: join(dir, "t.db") });
let k = 0;
const batch = events();
await time("sqlite appendEvents, one batch of 100k", () => store.appendEvents(`${runId}${++k}`, batch));
await time("sqlite appendEvents, 100 batches of 1k", async () => { const id = `${runId}${++k}`; for (let i = 0; i < N; i += 1000) await store.appendEvents(id, batch.slice(i, i + 1000)); });
await time("JSON.stringify alone ×100k", () => { for (const { event } of batch) JSON.stringify(event); });
const mem = createMemoryRunStore();
await time("memory store appendEvents, one batch of 100k", () => mem.appendEvents(`${runId}${++k}`, batch));

// 3. SSE encoding of one 100k batch through eventStreamResponse.
const readAll = async (res: Response) => { const r = res.body!.getReader(); let n = 0; for (;;) { const { done, value } = await r.read(); if (done) return n; n += value.length; } };
await time("eventStreamResponse, one batch of 100k", async () => {
  async function* src() { yield { runId, events: batch }; }
  await readAll(eventStreamResponse(src(), undefined, () => {}));
});
await time("eventStreamResponse, 400 batches of 250", async () => {
  async function* src() { for (let i = 0; i < N; i += 250) yield { runId, events: batch.slice(i, i + 250) }; }
  await readAll(eventStreamResponse(src(), undefined, () => {}));
});
const enc = new EventEncoder();
await time("encodeSSE alone ×100k", () => { for (const { event } of batch) enc.encodeSSE(event); });

// 4. hub emit + follow, memory store.
await time("hub emit ×100k + follow (memory store)", async () => {
  const hub = createRunHub({ store: createMemoryRunStore() });
  const ch = hub.open("r");
  const following = (async () => { let n = 0; for await (const b of hub.follow("r", 0)) n += b.length; return n; })();
  for (const { event } of batch) ch.emit(event);
  await ch.close();
  await following;
});
await store.close();
rmSync(dir, { recursive: true, force: true });
