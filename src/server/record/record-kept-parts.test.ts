import { EventType } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { createMemoryRunStore, type RunStore, type StoredEvent, type StoredFact } from "../store/index.ts";
import type { RunFact } from "./run-facts.ts";
import { assembleRecord } from "./assemble-record.ts";
import { RECORD_RULES_VERSION } from "./record-limits.ts";

const page = { afterSeq: 0, limit: 10, maxChars: 100_000 };
const longText = "x".repeat(300_000);

/** A memory store with one client-mode run whose request is too long to keep whole, counting the reads a record's parts cost. */
async function storeWithRun() {
  const inner = createMemoryRunStore();
  const messages = [{ id: "u1", role: "user" as const, content: longText }];
  await inner.beginRun({
    thread: { threadId: "t1", agentId: "a", ownerId: "u" },
    events: [{ seq: 1, event: { type: EventType.RUN_STARTED, threadId: "t1", runId: "r1", input: { messages } } as StoredEvent["event"] }],
    run: { runId: "r1", userId: "u", input: { messages, state: {}, context: [] }, log: [] },
    messages,
    resolvedToolCallIds: [],
  });
  const reads = { requests: 0, conversations: 0 };
  const store: RunStore = {
    ...inner,
    readRunInput: (runId) => (reads.requests++, inner.readRunInput(runId)),
    getMessages: (threadId, options) => (options?.withSetAside && reads.conversations++, inner.getMessages(threadId, options)),
  };
  // No cache: every read is a first read on a fresh instance.
  const read = async () => assembleRecord({ store, isLive: () => false, generatedUi: () => false }, (await inner.getRun("r1"))!, page);
  return { inner, store, reads, read };
}

const kinds = (facts: StoredFact[]) => facts.map((fact) => fact.kind);

describe("a record's parts kept as the run's facts", () => {
  it("computes the request part once, and an ended run's calls once, after it ended", async () => {
    const { inner, reads, read } = await storeWithRun();

    const running = await read();
    expect(await read()).toEqual(running);
    expect(reads.requests).toBe(1);
    expect(kinds(await inner.listFacts("r1"))).toEqual(["record-request"]);

    await inner.finishRun({ runId: "r1", status: "finished", outcome: { type: "success" } });
    const ended = await read();
    reads.conversations = 0;
    expect(await read()).toEqual(ended);
    expect(reads).toEqual({ requests: 1, conversations: 0 });
    expect(kinds(await inner.listFacts("r1"))).toEqual(["record-request", "record-calls"]);
    // What was cut is listed as a cut again, read back from JSON.
    expect(ended.cuts).toContain("/input/messages/0/content");
    expect(ended.input).toEqual(running.input);
  });

  it("takes the newest part when two first readers both wrote one, and recomputes a part kept under other rules", async () => {
    const { inner, reads, read } = await storeWithRun();
    const [one, two] = await Promise.all([read(), read()]);
    expect(two).toEqual(one);
    expect(kinds(await inner.listFacts("r1"))).toEqual(["record-request", "record-request"]);
    await read();
    expect(reads.requests).toBe(2);

    // A part kept by an older release, under other rules: not trusted, computed again.
    const [fact] = await inner.listFacts("r1");
    const stale = { ...fact, rules: RECORD_RULES_VERSION - 1, input: { ...one.input, messages: "stale" } } as unknown as RunFact;
    const fresh = createMemoryRunStore();
    await fresh.beginRun({
      thread: { threadId: "t1", agentId: "a", ownerId: "u" },
      events: await inner.readEvents("r1"),
      run: { runId: "r1", userId: "u", input: await inner.readRunInput("r1"), log: [] },
      messages: await inner.getMessages("t1"),
      resolvedToolCallIds: [],
    });
    await fresh.appendFacts("r1", [stale]);
    const record = await assembleRecord({ store: fresh, isLive: () => false, generatedUi: () => false }, (await fresh.getRun("r1"))!, page);
    expect(record.input).toEqual(one.input);
    expect((await fresh.listFacts("r1")).map((kept) => (kept as { rules?: number }).rules)).toEqual([RECORD_RULES_VERSION - 1, RECORD_RULES_VERSION]);
  });
});
