import type { Message } from "@ag-ui/core";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createMemoryRunStore, type RunStore } from "@tether-agent/tether/store";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { countingInputReads } from "./helpers/input-counting-store.ts";
import { createScriptedApp, type ScriptedApp } from "./helpers/scripted-app.ts";

/**
 * A long conversation with a stateless agent (the client sends the whole
 * history each turn, as Recipes does): 110 runs whose history grows to some
 * 350 KB. Reading the thread, its chain of runs, or reconnecting to it loads
 * none of the runs' requests; a run's record reads its own once, however many
 * pages are read. Measured at the store, by what it hands out.
 */
const RUNS = 110;
const TURN_WORDS = "a long question about what to cook with what is left in the fridge, ".repeat(30); // ~2 KB

const stores: Array<{ name: string; open: () => RunStore }> = [
  { name: "memory", open: () => createMemoryRunStore() },
  { name: "sqlite", open: () => createSqliteRunStore({ filename: join(mkdtempSync(join(tmpdir(), "tether-long-")), "tether.db") }) },
];

describe.each(stores)("a long stateless thread on the $name store", ({ open }) => {
  const { store, reads } = countingInputReads(open());
  let app: ScriptedApp;
  let history: Message[] = [];
  let lastRequestBytes = 0;
  afterAll(() => store.close());

  const get = (path: string, headers: Record<string, string> = {}) => app.tether.app.request(path, { headers: { "x-user": "kim", ...headers } });

  it(`runs ${RUNS} turns, each sending the whole history`, async () => {
    app = await createScriptedApp(
      Array.from({ length: RUNS }, (_, turn) => ({ text: `answer ${turn}: ${"rice, onions and a little cheese. ".repeat(20)}` })),
      { agent: { history: "client" }, store },
    );
    for (let turn = 1; turn <= RUNS; turn++) {
      history = [...history, { id: `u${turn}`, role: "user", content: `turn ${turn}: ${TURN_WORDS}` }];
      const body = { threadId: "long", runId: `r${turn}`, messages: history };
      lastRequestBytes = JSON.stringify(body).length;
      const frames = await app.run(body);
      expect(frames.at(-1)?.data.type).toBe("RUN_FINISHED");
      const answer = frames
        .filter((frame) => frame.data.type === "TEXT_MESSAGE_CONTENT")
        .map((frame) => frame.data.delta as string)
        .join("");
      history = [...history, { id: `a${turn}`, role: "assistant", content: answer }];
    }
    expect(lastRequestBytes).toBeGreaterThan(300_000);
  });

  it("reads the thread, its chain of runs and its events without loading any run's request", async () => {
    reads.reset();
    const thread = await get("/api/threads/long");
    expect(thread.status).toBe(200);
    expect(((await thread.json()) as { runs: unknown[] }).runs).toHaveLength(RUNS);
    const chain = await get("/api/threads/long/runs");
    expect(((await chain.json()) as { runs: Array<{ trigger: { kind: string; summary: string } }> }).runs.at(-1)?.trigger).toEqual({
      kind: "user-message",
      summary: expect.stringMatching(/^turn 110: a long question/),
    });
    // Reconnects: the last run replayed to its end, and from an id inside it.
    for (let loop = 0; loop < 8; loop++) {
      const replay = await get("/api/threads/long/events", loop % 2 === 0 ? {} : { "Last-Event-ID": `r${RUNS}:1` });
      expect(replay.status).toBe(200);
      expect(await replay.text()).toContain("RUN_FINISHED");
    }

    expect({ requests: reads.requests, bytes: reads.bytes }).toEqual({ requests: 0, bytes: 0 });
  });

  it("reads a run's request and its thread's messages once for its record, however many pages are read", async () => {
    reads.reset();
    const pages: Array<{ input: unknown; modelCalls: unknown; output: { next?: { afterSeq: number } } }> = [];
    let afterSeq = 0;
    let messagesForFirstPage = 0;
    for (let page = 0; page < 6; page++) {
      if (page === 1) messagesForFirstPage = reads.messages;
      const response = await get(`/api/runs/r${RUNS}/record?afterSeq=${afterSeq}&limit=2`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as (typeof pages)[number];
      pages.push(body);
      if (!body.output.next) break;
      afterSeq = body.output.next.afterSeq;
    }

    expect(pages.length).toBeGreaterThan(3);
    for (const page of pages) expect([page.input, page.modelCalls]).toEqual([pages[0]!.input, pages[0]!.modelCalls]);
    expect(reads.requests).toBe(1);
    // The first page reads the thread (the request's messages by id, the calls' results); the others read it no more.
    expect(messagesForFirstPage).toBeGreaterThan(RUNS);
    expect(reads.messages).toBe(messagesForFirstPage);
    expect(reads.bytes).toBeLessThan(1.1 * lastRequestBytes); // as validated: the same request, a few defaults added
  });
});
