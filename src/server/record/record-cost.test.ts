import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunStore } from "@tether-agent/tether/store";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { createScriptedApp, type ScriptedApp } from "../../../test/helpers/scripted-app.ts";

/** Every call of `keep` (redact + cap) over a value whose JSON is longer than this counts as redacting a whole request. */
const LARGE = 100_000;
const largeKeeps = vi.hoisted(() => ({ count: 0 }));
vi.mock("./keep.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("./keep.ts")>();
  return {
    ...original,
    keep: <T>(value: T, limit: number) => {
      if ((JSON.stringify(value) ?? "").length > LARGE) largeKeeps.count++;
      return original.keep(value, limit);
    },
  };
});

/**
 * A record costs in proportion to the page it returns: 40 stateless runs whose
 * request is a ~900 KB `a=a=…` message (slow to redact), read in pages and in a
 * cycle larger than any cache, then again after a restart on the same store.
 * Counted at the store (what it hands out) and at `keep` (what is redacted).
 */
const RUNS = 40;
const HUGE = "a=".repeat(450_000);

/** Which runs' requests the store handed out, and how many times it handed out a thread's whole conversation. */
function countingReads(store: RunStore) {
  const reads = { requests: new Map<string, number>(), conversations: 0 };
  const counted: RunStore = {
    ...store,
    readRunInput(runId) {
      reads.requests.set(runId, (reads.requests.get(runId) ?? 0) + 1);
      return store.readRunInput(runId);
    },
    getMessages(threadId, options) {
      if (options?.withSetAside) reads.conversations++;
      return store.getMessages(threadId, options);
    },
  };
  return { store: counted, reads };
}

describe("the cost of reading run records", () => {
  const filename = join(mkdtempSync(join(tmpdir(), "tether-record-cost-")), "tether.db");
  const opened: RunStore[] = [];
  const open = () => {
    const store = createSqliteRunStore({ filename });
    opened.push(store);
    return countingReads(store);
  };
  let first: ReturnType<typeof countingReads>;
  let app: ScriptedApp;
  afterAll(async () => {
    for (const store of opened) await store.close();
  });
  beforeEach(() => {
    largeKeeps.count = 0;
  });

  const record = async (target: ScriptedApp, runId: string, query = "") => {
    const response = await target.tether.app.request(`/api/runs/${runId}/record${query}`, { headers: { "x-user": "kim" } });
    expect(response.status).toBe(200);
    return (await response.json()) as { input: { messageCount: number }; output: { events: Array<{ type: string; event: Record<string, unknown> }> } };
  };

  it(`runs ${RUNS} stateless runs, each sent a ~900 KB a=a=… message`, async () => {
    first = open();
    app = await createScriptedApp(
      Array.from({ length: RUNS }, (_, turn) => ({ text: `answer ${turn}` })),
      { agent: { history: "client" }, store: first.store },
    );
    for (let turn = 0; turn < RUNS; turn++) {
      const frames = await app.run({ threadId: `t${turn}`, runId: `r${turn}`, messages: [{ id: `u${turn}`, role: "user", content: HUGE }] });
      expect(frames.at(-1)?.data.type).toBe("RUN_FINISHED");
    }
  }, 300_000);

  it("re-reads a record's first page without redacting the request again: RUN_STARTED gives its messages' count and ids", async () => {
    const once = await record(app, "r0", "?limit=5");
    expect(once.input.messageCount).toBe(1);
    largeKeeps.count = 0;

    const pages = [];
    for (let read = 0; read < 3; read++) pages.push(await record(app, "r0", "?limit=5"));
    expect(largeKeeps.count).toBe(0);
    for (const page of pages) {
      const started = page.output.events.find((event) => event.type === "RUN_STARTED")!;
      expect(started.event.input).toEqual({ threadId: "t0", runId: "r0", tools: [], context: [], messageCount: 1, messageIds: ["u0"] });
    }
  }, 120_000);

  it(`computes each run's request part once over ${RUNS} records read in a cycle, and none after a restart`, async () => {
    first.reads.requests.clear();
    first.reads.conversations = 0;
    for (let cycle = 0; cycle < 3; cycle++) for (let turn = 0; turn < RUNS; turn++) await record(app, `r${turn}`);
    // r0 was read before: its part was kept then.
    expect(first.reads.requests.size).toBe(RUNS - 1);
    expect([...first.reads.requests.values()].every((reads) => reads === 1)).toBe(true);
    expect(first.reads.conversations).toBe(RUNS - 1);
    expect(largeKeeps.count).toBe(RUNS - 1);

    // A restart: a fresh app on the same database, nothing cached.
    await opened.pop()!.close();
    largeKeeps.count = 0;
    const reopened = open();
    const restarted = await createScriptedApp([], { agent: { history: "client" }, store: reopened.store });
    for (let turn = 0; turn < RUNS; turn++) expect((await record(restarted, `r${turn}`)).input.messageCount).toBe(1);
    expect(reopened.reads.requests.size).toBe(0);
    expect(reopened.reads.conversations).toBe(0);
    expect(largeKeeps.count).toBe(0);
  }, 300_000);
});
