import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType, type Message } from "@ag-ui/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { isTetherError, type TetherErrorCode } from "../../protocol/index.ts";
import { activityMessage, assistantMessage, toolCall, toolMessage, userMessage } from "../../../test/fixtures/messages.ts";
import { createMemoryRunStore } from "./memory.ts";
import { UNSTORED_EVENT_LIMIT, type BeginRun, type PendingToolCall, type RunStore, type StoredEvent, type StoredInterrupt } from "./port.ts";
import { createSqliteRunStore } from "../adapters/sqlite/index.ts";
import { createPgRunStore } from "../adapters/pg/index.ts";
import { embeddedPostgres, reachablePostgres, serverSchemas, uniqueSchema } from "../../../test/helpers/postgres.ts";
import { quoteIdentifier } from "../adapters/pg/schema.ts";
import type { ModelCallFact, RunFact } from "../record/index.ts";
import { runInputContract } from "../../../test/helpers/run-input-contract.ts";
import Database from "better-sqlite3";
import pg from "pg";

/** One adapter of the `RunStore` port, as the contract suite sees it. */
interface StoreAdapter {
  name: string;
  /** Opens a fresh, empty store on the given clock. */
  open(now: () => Date): Promise<RunStore>;
  /** Whether runs can outlive the process, so `recoverInterruptedRuns` has something to do. */
  durable: boolean;
  /**
   * Closes a store and opens it again on the same data, as a process that
   * restarts does; absent where nothing outlives the store (`:memory:`), and
   * then recovery is tried on the store itself.
   */
  reopen?(store: RunStore, now: () => Date): Promise<RunStore>;
  /** The bytes the store holds for run requests (inputs and histories), where the adapter can measure them. */
  storedBytes?(store: RunStore): Promise<number>;
}

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

const userTurn = userMessage("m1", "open the work request list");
const navigateCall = assistantMessage("m2", "", [toolCall("call_1", "navigate", { screenId: "MNU-3120" }), toolCall("call_2", "showHint", {})]);
const pendingCalls: PendingToolCall[] = [
  { toolCallId: "call_1", toolName: "navigate", runId: "run_1", arguments: '{"screenId":"MNU-3120"}' },
  { toolCallId: "call_2", toolName: "showHint", runId: "run_1", arguments: "{}" },
];

function begin(
  overrides: { threadId?: string; runId?: string; ownerId?: string; messages?: Message[]; resolvedToolCallIds?: string[]; events?: StoredEvent[] } = {},
): BeginRun {
  const threadId = overrides.threadId ?? "thread_1";
  const runId = overrides.runId ?? "run_1";
  const ownerId = overrides.ownerId ?? "kim";
  return {
    thread: { threadId, agentId: "workdesk", ownerId },
    run: { runId, userId: ownerId, input: { threadId, runId, messageIds: ["m1"] }, log: [] },
    events: overrides.events ?? [],
    messages: overrides.messages ?? [userTurn],
    resolvedToolCallIds: overrides.resolvedToolCallIds ?? [],
  };
}

/** An approval run_1 asked for, about call_1. */
const approval: StoredInterrupt = {
  interrupt: { id: "int_1", reason: "tool_approval", message: "Allow navigate?", toolCallId: "call_1" },
  threadId: "thread_1",
  runId: "run_1",
  userId: "kim",
  toolCallId: "call_1",
  toolName: "navigate",
  arguments: '{"screenId":"MNU-3120"}',
  status: "pending",
};

/** A model call as the loop writes it down, for the record. */
function modelCall(step: number): ModelCallFact {
  return {
    kind: "model-call",
    step,
    model: { provider: "tether.playbook", modelId: "workdesk" },
    settings: { toolChoice: "auto" },
    messageCount: 2,
    toolCount: 3,
    startedAt: at(step),
    firstTokenMs: 4,
    durationMs: 20,
    finishReason: "tool-calls",
    messageId: "m2",
    toolCalls: [{ toolCallId: "call_1", toolName: "navigate", location: "browser", status: "pending" }],
    surfaces: [],
  };
}
const offered: RunFact = { kind: "tools", tools: [{ name: "navigate", location: "browser", decision: "offered" }] };

function started(runId = "run_1", threadId = "thread_1"): StoredEvent {
  return { seq: 1, event: { type: EventType.RUN_STARTED, threadId, runId } as StoredEvent["event"] };
}

function event(seq: number, delta: string): StoredEvent {
  return { seq, event: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m2", delta } as StoredEvent["event"] };
}

async function rejection(promise: Promise<unknown>): Promise<TetherErrorCode | "not a TetherError"> {
  try {
    await promise;
  } catch (error) {
    return isTetherError(error) ? error.code : "not a TetherError";
  }
  throw new Error("expected the promise to reject");
}

/** A state with what JSON can hold: nesting, arrays, unicode beyond the BMP, escapes, numbers at their edges, keys in an order of their own. */
const richState = {
  zeta: { list: [1, "two", null, true, { deep: [[], {}] }], empty: {} },
  alpha: "Grüße, 東京 ✓ 🎉 e\u0301 \u05e9\u05dc\u05d5\u05dd",
  escapes: 'tab\tnewline\nquote" backslash\\ nul\u0000 lone\ud800',
  numbers: [0, -1, 0.1 + 0.2, 1e-7, 2 ** 53 - 1, -1.5e300],
  "": "the empty key",
  "a/b~c": "JSON Pointer's own characters",
};

/**
 * The contract's cases about an agent's shared state (AG-UI `state`): the
 * thread holds its current value and each run the one it started from or
 * committed last, written in the transactions that start a run, commit a
 * step and finish it, never by a run that already ended; a lost run ends
 * with a snapshot of what the thread kept.
 */
function sharedStateContract(openStore: () => Promise<RunStore>, restart: (store: RunStore) => Promise<RunStore>, durable: boolean) {
  const plan = { recipe: { title: "Risotto", servings: 2 } };
  const edited = { recipe: { title: "Risotto", servings: 4 }, steps: ["toast the rice"] };
  const done = { recipe: { title: "Risotto", servings: 4 }, steps: ["toast the rice", "stir"], finished: true };
  const stateOf = async (store: RunStore, runId = "run_1", threadId = "thread_1") => ({
    thread: (await store.getThread(threadId))?.state,
    run: (await store.getRun(runId))?.state,
  });

  it("has no state on a thread and a run begun without one", async () => {
    const store = await openStore();
    await store.beginRun(begin());
    await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [] });

    expect(await store.getThread("thread_1")).not.toHaveProperty("state");
    for (const run of [await store.getRun("run_1"), await store.getActiveRun("thread_1"), ...(await store.listRuns("thread_1"))]) {
      expect(run).not.toHaveProperty("state");
    }
  });

  it("stores the state a run begins with as the thread's and the run's, and a later run without one starts from the thread's", async () => {
    const store = await openStore();
    await store.beginRun({ ...begin(), state: plan });

    expect(await stateOf(store)).toEqual({ thread: plan, run: plan });
    expect((await store.getActiveRun("thread_1"))?.state).toEqual(plan);
    expect((await store.listRuns("thread_1")).map((run) => run.state)).toEqual([plan]);

    await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" } });
    await store.beginRun(begin({ runId: "run_2", messages: [userMessage("m3", "and for four?")] }));

    expect(await stateOf(store, "run_2")).toEqual({ thread: plan, run: plan });
    expect((await store.listRuns("thread_1")).map((run) => run.state)).toEqual([plan, plan]);
  });

  it("replaces the thread's and the run's state with a step's, keeps it through a step without one, and an earlier run keeps its own", async () => {
    const store = await openStore();
    await store.beginRun({ ...begin(), state: plan });

    await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [], state: edited });
    expect(await stateOf(store)).toEqual({ thread: edited, run: edited });

    await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [], pending: [] });
    expect(await stateOf(store)).toEqual({ thread: edited, run: edited });

    await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" } });
    await store.beginRun({ ...begin({ runId: "run_2", messages: [userMessage("m3", "no, for two")] }), state: plan });
    expect(await stateOf(store, "run_2")).toEqual({ thread: plan, run: plan });
    expect((await store.getRun("run_1"))?.state).toEqual(edited);
  });

  it("stores the state finishRun carries as the thread's and the run's, once: a second finishRun changes nothing", async () => {
    const store = await openStore();
    await store.beginRun({ ...begin(), state: plan });

    await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" }, state: edited });
    expect(await stateOf(store)).toEqual({ thread: edited, run: edited });

    await store.finishRun({ runId: "run_1", status: "error", error: { code: "internal", message: "late" }, state: done });
    expect(await stateOf(store)).toEqual({ thread: edited, run: edited });
    // Without state, finishRun leaves it as the run's last commit left it.
    await store.beginRun(begin({ runId: "run_2", messages: [userMessage("m3", "go on")] }));
    await store.finishRun({ runId: "run_2", status: "finished", outcome: { type: "success" } });
    expect(await stateOf(store, "run_2")).toEqual({ thread: edited, run: edited });
  });

  it.each([
    ["ended as lost", (store: RunStore) => store.endLostRun("run_1", { code: "instance_lost", status: "error", message: "The server stopped." })],
    ["finished", (store: RunStore) => store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" } })],
  ])("writes no state for a run %s: its step is refused and its late finishRun ignored, whatever the thread's next run did", async (_how, end) => {
    const store = await openStore();
    await store.beginRun({ ...begin(), state: plan });
    await end(store);

    expect(await rejection(store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [], state: done }))).toBe(
      "run_not_active",
    );
    await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" }, state: done });
    expect(await stateOf(store)).toEqual({ thread: plan, run: plan });

    await store.beginRun({ ...begin({ runId: "run_2", messages: [userMessage("m3", "still there?")] }), state: edited });
    expect(await rejection(store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [], pending: [], state: done }))).toBe("run_not_active");
    await store.finishRun({ runId: "run_1", status: "error", error: { code: "internal", message: "late" }, state: done });
    expect(await stateOf(store, "run_2")).toEqual({ thread: edited, run: edited });
    expect((await store.getRun("run_1"))?.state).toEqual(plan);
  });

  it("writes no state when beginRun is refused, even for a refusal found after the thread was written", async () => {
    const store = await openStore();
    await store.beginRun({ ...begin(), state: plan });
    await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: pendingCalls });
    await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success", pendingToolCallIds: ["call_1", "call_2"] } });
    await store.beginRun({ ...begin({ runId: "run_2", messages: [], resolvedToolCallIds: ["call_1"] }), state: edited });
    await store.finishRun({ runId: "run_2", status: "finished", outcome: { type: "success" } });

    // call_1 was answered by run_2: the same answer again is refused, as are a taken run id and a thread of another user.
    const again = store.beginRun({ ...begin({ runId: "run_3", messages: [], resolvedToolCallIds: ["call_1"] }), state: done });
    expect(await rejection(again)).toBe("history_conflict");
    expect(await rejection(store.beginRun({ ...begin({ runId: "run_2", messages: [] }), state: done }))).toBe("run_exists");
    expect(await rejection(store.beginRun({ ...begin({ runId: "run_4", ownerId: "lee", messages: [] }), state: done }))).toBe("forbidden");

    expect(await stateOf(store, "run_2")).toEqual({ thread: edited, run: edited });
    expect(await store.getRun("run_3")).toBeUndefined();
  });

  it("ends a lost run of a thread with state with a snapshot of the state its last step committed, before the messages snapshot", async () => {
    const store = await openStore();
    await store.beginRun({ ...begin({ events: [started()] }), state: plan });
    await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [], state: edited });
    await store.appendEvents("run_1", [event(2, "Open")]);

    const ending = await store.endLostRun("run_1", { code: "instance_lost", status: "error", message: "The server stopped." });

    // A thread without state ends with the messages snapshot and the error alone (see "ends a lost run in endLostRun ...").
    const gapEnd = 2 + UNSTORED_EVENT_LIMIT;
    expect(ending?.map(({ seq, event }) => [seq, event.type])).toEqual([
      [gapEnd + 1, EventType.STATE_SNAPSHOT],
      [gapEnd + 2, EventType.MESSAGES_SNAPSHOT],
      [gapEnd + 3, EventType.RUN_ERROR],
    ]);
    expect(ending?.[0]?.event).toEqual({ type: EventType.STATE_SNAPSHOT, snapshot: edited });
    expect(ending?.[1]?.event).toMatchObject({ messages: [userTurn, navigateCall] });
    expect(await store.readEvents("run_1", 2)).toEqual(ending);
    expect(await stateOf(store)).toEqual({ thread: edited, run: edited });
  });

  it("snapshots the thread's state, kept from an earlier run, when a run that began without one is lost", async () => {
    const store = await openStore();
    await store.beginRun({ ...begin(), state: plan });
    await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" }, state: edited });
    await store.beginRun(begin({ runId: "run_2", messages: [userMessage("m3", "go on")], events: [started("run_2")] }));

    const ending = await store.endLostRun("run_2", { code: "run_cancelled", status: "cancelled", message: "Cancelled." });

    expect(ending?.map(({ event }) => event.type)).toEqual([EventType.STATE_SNAPSHOT, EventType.MESSAGES_SNAPSHOT, EventType.RUN_ERROR]);
    expect(ending?.[0]?.event).toEqual({ type: EventType.STATE_SNAPSHOT, snapshot: edited });
  });

  it("gives back exactly the state it was given, through every write and the lost run's snapshot, and copies of it", async () => {
    const store = await openStore();
    const exact = JSON.stringify(richState);
    const through = (value: unknown) => expect(JSON.stringify(value)).toBe(exact);
    await store.beginRun({ ...begin({ events: [started()] }), state: richState });
    through((await store.getThread("thread_1"))?.state);
    through((await store.getRun("run_1"))?.state);

    await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [], pending: [], state: { ...richState, step: 1 } });
    expect(JSON.stringify((await store.getActiveRun("thread_1"))?.state)).toBe(JSON.stringify({ ...richState, step: 1 }));
    const given = structuredClone(richState);
    await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" }, state: given });
    given.zeta.list.push("changed after the write");
    (await store.getThread("thread_1"))!.state!.alpha = "changed after the read";
    through((await store.getThread("thread_1"))?.state);
    through((await store.listRuns("thread_1"))[0]?.state);

    await store.beginRun(begin({ runId: "run_2", messages: [userMessage("m3", "again")], events: [started("run_2")] }));
    const ending = await store.endLostRun("run_2", { code: "instance_lost", status: "error", message: "The server stopped." });
    const replayed = await store.readEvents("run_2", 1);
    for (const snapshot of [ending?.[0], replayed[0]]) through((snapshot?.event as { snapshot?: unknown } | undefined)?.snapshot);

    const reopened = await restart(store);
    through((await reopened.getThread("thread_1"))?.state);
    through((await reopened.getRun("run_2"))?.state);
  });

  if (durable) {
    it("ends a run left running with a snapshot of its thread's committed state in recoverInterruptedRuns, kept across the restart", async () => {
      const stopped = await openStore();
      await stopped.beginRun({ ...begin({ events: [started()] }), state: plan });
      await stopped.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [], state: edited });
      const store = await restart(stopped);

      expect(await store.recoverInterruptedRuns()).toBe(1);

      expect((await store.readEvents("run_1")).map(({ seq, event }) => [seq, event.type])).toEqual([
        [1, EventType.RUN_STARTED],
        [UNSTORED_EVENT_LIMIT + 2, EventType.STATE_SNAPSHOT],
        [UNSTORED_EVENT_LIMIT + 3, EventType.MESSAGES_SNAPSHOT],
        [UNSTORED_EVENT_LIMIT + 4, EventType.RUN_ERROR],
      ]);
      expect((await store.readEvents("run_1", 1))[0]?.event).toEqual({ type: EventType.STATE_SNAPSHOT, snapshot: edited });
      expect(await stateOf(store)).toEqual({ thread: edited, run: edited });
    });
  }
}

function runStoreContract(adapter: StoreAdapter) {
  describe(`RunStore contract: ${adapter.name}`, () => {
    const opened: RunStore[] = [];
    let clock = T0;

    async function openStore(): Promise<RunStore> {
      clock = T0;
      const store = await adapter.open(() => new Date(clock));
      opened.push(store);
      return store;
    }

    runInputContract(openStore, adapter.storedBytes);
    describe("shared state", () => sharedStateContract(openStore, (store) => restart(store), adapter.durable));

    /** The observable state of one thread, to compare before and after a refused call. */
    async function snapshot(store: RunStore, threadId: string) {
      return {
        thread: await store.getThread(threadId),
        messages: await store.getMessages(threadId),
        pending: await store.getPendingToolCalls(threadId),
        runs: await store.listRuns(threadId),
        active: await store.getActiveRun(threadId),
      };
    }

    /** The same data after a restart (or the same store, for an adapter that cannot restart). */
    async function restart(store: RunStore): Promise<RunStore> {
      if (!adapter.reopen) return store;
      opened.splice(opened.indexOf(store), 1);
      const next = await adapter.reopen(store, () => new Date(clock));
      opened.push(next);
      return next;
    }

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it("knows nothing about threads and runs it never stored", async () => {
      const store = await openStore();

      expect(await snapshot(store, "thread_1")).toEqual({ thread: undefined, messages: [], pending: [], runs: [], active: undefined });
      expect(await store.getRun("run_1")).toBeUndefined();
      expect(await store.readEvents("run_1")).toEqual([]);
      expect(await store.listReports("run_1")).toEqual([]);
      expect(await store.listFacts("run_1")).toEqual([]);
    });

    it("keeps a run's record facts written with its start, its steps and its end, in order, and none of a refused start", async () => {
      const store = await openStore();
      await store.beginRun({ ...begin(), facts: [offered] });
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [], facts: [modelCall(1)] });
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [], pending: [] });
      await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" }, facts: [modelCall(2)] });
      // A second end is ignored, with its facts.
      await store.finishRun({ runId: "run_1", status: "error", error: { code: "internal", message: "late" }, facts: [modelCall(3)] });
      expect(await rejection(store.beginRun({ ...begin({ runId: "run_1" }), facts: [offered] }))).toBe("run_exists");

      expect(await store.listFacts("run_1")).toEqual([offered, modelCall(1), modelCall(2)]);
      expect(await store.listFacts("run_2")).toEqual([]);
      (await store.listFacts("run_1")).pop();
      expect(await store.listFacts("run_1")).toHaveLength(3);
    });

    it("appends facts after a run's own, to a running or an ended run, kept across a restart, and refuses an unknown run", async () => {
      const store = await openStore();
      await store.beginRun({ ...begin(), facts: [offered] });
      const later: RunFact = { kind: "trace", traceId: "a".repeat(32), spanId: "b".repeat(16) };
      await store.appendFacts("run_1", [later]);
      await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" }, facts: [modelCall(1)] });
      // Two readers writing the same part at once: both kept, the newest last.
      await Promise.all([store.appendFacts("run_1", [later]), store.appendFacts("run_1", [later])]);
      expect(await rejection(store.appendFacts("run_2", [later]))).toBe("run_not_found");

      const reopened = await restart(store);
      expect(await reopened.listFacts("run_1")).toEqual([offered, later, modelCall(1), later, later]);
      expect(await reopened.listFacts("run_2")).toEqual([]);
    });

    it("creates the thread, the running run and its messages in beginRun", async () => {
      const store = await openStore();
      const trigger = { kind: "user-message" as const };

      await store.beginRun({ ...begin(), run: { ...begin().run, parentRunId: "run_0", trigger } });

      expect(await store.getThread("thread_1")).toEqual({ threadId: "thread_1", agentId: "workdesk", ownerId: "kim", createdAt: at(0), updatedAt: at(0) });
      const run = {
        runId: "run_1",
        threadId: "thread_1",
        agentId: "workdesk",
        userId: "kim",
        parentRunId: "run_0",
        trigger,
        status: "running",
        log: [],
        createdAt: at(0),
      };
      expect(await store.getRun("run_1")).toEqual(run);
      expect(await store.getActiveRun("thread_1")).toEqual(run);
      expect(await store.readRunInput("run_1")).toEqual({ threadId: "thread_1", runId: "run_1", messageIds: ["m1"] });
      expect(await store.getMessages("thread_1")).toEqual([userTurn]);
    });

    it("appends a later run's messages to the thread and touches updatedAt only", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" } });
      clock = T0 + 30_000;

      await store.beginRun(begin({ runId: "run_2", messages: [userMessage("m3", "thanks")] }));

      expect(await store.getThread("thread_1")).toMatchObject({ createdAt: at(0), updatedAt: at(30) });
      expect((await store.getMessages("thread_1")).map((message) => message.id)).toEqual(["m1", "m3"]);
    });

    it("refuses a runId that is already taken with run_exists, in any thread", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.finishRun({ runId: "run_1", status: "finished" });

      expect(await rejection(store.beginRun(begin({ messages: [userMessage("m3", "again")] })))).toBe("run_exists");
      expect(await rejection(store.beginRun(begin({ threadId: "thread_2" })))).toBe("run_exists");
    });

    it("refuses a second run while the thread has a running one with run_in_progress", async () => {
      const store = await openStore();
      await store.beginRun(begin());

      expect(await rejection(store.beginRun(begin({ runId: "run_2", messages: [userMessage("m3", "hurry")] })))).toBe("run_in_progress");
    });

    it("admits only one of two runs begun on a new thread at the same moment", async () => {
      const store = await openStore();

      const runIds = ["run_a", "run_b"];
      const results = await Promise.all([
        rejection(store.beginRun(begin({ runId: "run_a" }))).catch(() => "admitted"),
        rejection(store.beginRun(begin({ runId: "run_b", messages: [] }))).catch(() => "admitted"),
      ]);

      // Either may win (on a networked database they really race), never both.
      expect([...results].sort()).toEqual(["admitted", "run_in_progress"]);
      expect((await store.listRuns("thread_1")).map((run) => run.runId)).toEqual([runIds[results.indexOf("admitted")]]);
    });

    it("refuses another owner's thread with forbidden", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.finishRun({ runId: "run_1", status: "finished" });

      expect(await rejection(store.beginRun(begin({ runId: "run_2", ownerId: "lee" })))).toBe("forbidden");
    });

    it("writes nothing for a new thread when beginRun is refused", async () => {
      const store = await openStore();
      await store.beginRun(begin());

      expect(await rejection(store.beginRun(begin({ threadId: "thread_2", messages: [userMessage("x1", "hi")] })))).toBe("run_exists");

      expect(await snapshot(store, "thread_2")).toEqual({ thread: undefined, messages: [], pending: [], runs: [], active: undefined });
      expect((await store.getRun("run_1"))?.threadId).toBe("thread_1");
    });

    it("writes nothing to an existing thread when beginRun is refused", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: pendingCalls });
      const before = await snapshot(store, "thread_1");
      clock = T0 + 60_000;
      const answer = toolMessage("m3", "call_1", { status: "succeeded" });

      expect(await rejection(store.beginRun(begin({ runId: "run_2", messages: [answer], resolvedToolCallIds: ["call_1"] })))).toBe("run_in_progress");
      await store.finishRun({ runId: "run_1", status: "finished" });
      const finished = await snapshot(store, "thread_1");
      expect(await rejection(store.beginRun(begin({ runId: "run_2", ownerId: "lee", messages: [answer], resolvedToolCallIds: ["call_1"] })))).toBe("forbidden");

      expect(finished.messages).toEqual(before.messages);
      expect(finished.pending).toEqual(before.pending);
      expect(finished.thread).toEqual(before.thread);
      expect(await snapshot(store, "thread_1")).toEqual(finished);
      expect(await store.getRun("run_2")).toBeUndefined();
    });

    it("refuses with history_conflict, writing nothing, a run answering a browser call another run answered since it was checked", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: pendingCalls });
      await store.finishRun({ runId: "run_1", status: "finished" });
      // Two requests were checked while both calls were pending; the first to be written answered call_1 only.
      await store.beginRun(begin({ runId: "run_2", messages: [toolMessage("m3", "call_1", { status: "succeeded" })], resolvedToolCallIds: ["call_1"] }));
      await store.finishRun({ runId: "run_2", status: "finished" });
      const before = await snapshot(store, "thread_1");
      clock = T0 + 60_000;

      const again = toolMessage("m4", "call_1", { status: "succeeded" });
      // call_2 first: a store that already let it go must take that back too.
      expect(await rejection(store.beginRun(begin({ runId: "run_3", messages: [again], resolvedToolCallIds: ["call_2", "call_1"] })))).toBe("history_conflict");

      expect(await snapshot(store, "thread_1")).toEqual(before);
      expect(before.pending.map((call) => call.toolCallId)).toEqual(["call_2"]);
      expect(await store.getRun("run_3")).toBeUndefined();
    });

    // A message carrying a function and a BigInt can be neither cloned (memory) nor serialised (SQLite).
    const unstorable = { ...userMessage("m1", "hi"), metadata: { onClick: () => undefined, size: 1n } } as Message;
    it("writes nothing when a message of beginRun cannot be stored", async () => {
      const store = await openStore();

      await expect(store.beginRun(begin({ messages: [unstorable] }))).rejects.toThrow();

      expect(await snapshot(store, "thread_1")).toEqual({ thread: undefined, messages: [], pending: [], runs: [], active: undefined });
      expect(await store.getRun("run_1")).toBeUndefined();
    });

    it("reads back events after a given sequence number, in order", async () => {
      const store = await openStore();
      await store.beginRun(begin());

      await store.appendEvents("run_1", [event(1, "Open"), event(2, "ing")]);
      await store.appendEvents("run_1", [event(3, " it.")]);
      await store.appendEvents("run_1", []);

      expect(await store.readEvents("run_1")).toEqual([event(1, "Open"), event(2, "ing"), event(3, " it.")]);
      expect(await store.readEvents("run_1", 2)).toEqual([event(3, " it.")]);
      expect(await store.readEvents("run_1", 3)).toEqual([]);
      expect(await store.readEvents("run_2")).toEqual([]);
    });

    it("stores a run's first events with the run in beginRun, and none when it is refused", async () => {
      const store = await openStore();
      await store.beginRun(begin({ events: [started()] }));
      expect(await rejection(store.beginRun(begin({ runId: "run_2", events: [started("run_2")] })))).toBe("run_in_progress");

      expect(await store.readEvents("run_1")).toEqual([started()]);
      expect(await store.readEvents("run_2")).toEqual([]);
    });

    it("gives the run's last stored event in getLastEvent", async () => {
      const store = await openStore();
      expect(await store.getLastEvent("run_1")).toBeUndefined();
      await store.beginRun(begin({ events: [started()] }));
      expect(await store.getLastEvent("run_1")).toEqual(started());
      await store.appendEvents("run_1", [event(2, "Open"), event(3, "ing")]);

      expect(await store.getLastEvent("run_1")).toEqual(event(3, "ing"));
    });

    it("stores a run's last events with its end in finishRun, and not again for a run that already ended", async () => {
      const store = await openStore();
      await store.beginRun(begin({ events: [started()] }));
      const finished: StoredEvent = { seq: 3, event: { type: EventType.RUN_FINISHED, threadId: "thread_1", runId: "run_1" } as StoredEvent["event"] };

      await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" }, events: [event(2, "Done."), finished] });
      await store.finishRun({ runId: "run_1", status: "error", error: { code: "internal", message: "late" }, events: [event(4, "late")] });

      expect(await store.readEvents("run_1")).toEqual([started(), event(2, "Done."), finished]);
      expect((await store.getRun("run_1"))?.status).toBe("finished");
    });

    it("ends a lost run in endLostRun after a gap past its stored events, with what the thread kept and which ids were lost", async () => {
      const store = await openStore();
      await store.beginRun(begin({ events: [started()] }));
      await store.appendEvents("run_1", [event(2, "Open")]);
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [] });
      clock = T0 + 7_000;

      const ending = await store.endLostRun("run_1", { code: "run_cancelled", status: "cancelled", message: "Cancelled after its server stopped." });

      const gapEnd = 2 + UNSTORED_EVENT_LIMIT;
      expect(ending?.map(({ seq, event }) => [seq, event.type])).toEqual([
        [gapEnd + 1, EventType.MESSAGES_SNAPSHOT],
        [gapEnd + 2, EventType.RUN_ERROR],
      ]);
      expect(ending?.[0]?.event).toMatchObject({ messages: [userTurn, navigateCall] });
      expect(ending?.[1]?.event).toMatchObject({
        code: "run_cancelled",
        message: expect.stringContaining("Cancelled after its server stopped."),
        metadata: { tether: { runId: "run_1", threadId: "thread_1", lostEvents: { afterSeq: 2, throughSeq: gapEnd } } },
      });
      expect(await store.readEvents("run_1", 2)).toEqual(ending);
      expect(await store.getRun("run_1")).toMatchObject({ status: "cancelled", error: { code: "run_cancelled" }, finishedAt: at(7) });
      expect(await store.getActiveRun("thread_1")).toBeUndefined();
      expect(await store.endLostRun("run_1", { code: "instance_lost", status: "error", message: "again" })).toBeUndefined();
      expect(await store.endLostRun("run_9", { code: "instance_lost", status: "error", message: "unknown" })).toBeUndefined();
    });

    it("refuses a step of a run ended elsewhere with run_not_active and writes none of it, so a late step never lands in the thread", async () => {
      const store = await openStore();
      await store.beginRun(begin({ events: [started()] }));
      await store.endLostRun("run_1", { code: "instance_lost", status: "error", message: "The server stopped." });
      await store.beginRun(begin({ runId: "run_2", messages: [userMessage("m3", "still there?")] }));
      const before = await snapshot(store, "thread_1");
      const late = { ...approval, interrupt: { ...approval.interrupt, id: "int_late" } };

      const refused = store.commitStep({
        threadId: "thread_1",
        runId: "run_1",
        messages: [navigateCall],
        pending: pendingCalls,
        interrupts: [late],
        facts: [modelCall(1)],
      });

      expect(await rejection(refused)).toBe("run_not_active");
      await expect(refused).rejects.toThrow(/run_1 has already ended \(error\).*not saved/);
      expect(await snapshot(store, "thread_1")).toEqual(before);
      expect(await store.getInterrupt("int_late")).toBeUndefined();
      expect(await store.listFacts("run_1")).toEqual([]);
      expect(await rejection(store.commitStep({ threadId: "thread_1", runId: "run_9", messages: [], pending: [] }))).toBe("run_not_active");
    });

    it("stores no events for a run that is not running: ended elsewhere, finished, or unknown", async () => {
      const store = await openStore();
      await store.beginRun(begin({ events: [started()] }));
      await store.endLostRun("run_1", { code: "instance_lost", status: "error", message: "The server stopped." });
      await store.beginRun(begin({ threadId: "thread_2", runId: "run_2", events: [started("run_2", "thread_2")] }));
      await store.finishRun({ runId: "run_2", status: "finished" });
      const ended = await store.readEvents("run_1");

      await store.appendEvents("run_1", [event(2, "late")]);
      await store.appendEvents("run_2", [event(2, "late")]);
      await store.appendEvents("run_9", [event(1, "late")]);

      expect(await store.readEvents("run_1")).toEqual(ended);
      expect(await store.readEvents("run_2")).toEqual([started("run_2", "thread_2")]);
      expect(await store.readEvents("run_9")).toEqual([]);
    });

    it.each([
      [
        "finishRun with an error",
        (store: RunStore) => store.finishRun({ runId: "run_1", status: "error", error: { code: "store_unavailable", message: "Not saved." } }),
      ],
      ["endLostRun", (store: RunStore) => store.endLostRun("run_1", { code: "instance_lost", status: "error", message: "The server stopped." })],
    ])("closes the approvals a run asked for when it ends by %s, answering their calls, so nobody waits on a question never seen", async (_name, end) => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [], interrupts: [approval] });

      await end(store);

      expect(await store.getPendingInterrupts("thread_1")).toEqual([]);
      expect(await store.getInterrupt("int_1")).toMatchObject({ status: "cancelled", answer: { status: "cancelled" }, resolvedByRunId: "run_1" });
      const answered = (await store.getMessages("thread_1")).at(-1);
      expect(answered).toMatchObject({ role: "tool", toolCallId: "call_1" });
      expect(JSON.parse((answered as { content: string }).content)).toMatchObject({ status: "cancelled" });
    });

    it("leaves a run's approvals open when it finishes by asking them", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [], interrupts: [approval] });

      await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "interrupt", interrupts: [approval.interrupt] } });

      expect((await store.getPendingInterrupts("thread_1")).map((stored) => stored.interrupt.id)).toEqual(["int_1"]);
    });

    it("gives the thread as a run found it with beforeRunId: the messages of the runs that began before it", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [] });
      await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" } });
      const second = userMessage("m3", "and the approvals");
      await store.beginRun(begin({ runId: "run_2", messages: [second] }));
      await store.commitStep({ threadId: "thread_1", runId: "run_2", messages: [assistantMessage("m4", "Here.")], pending: [] });

      expect(await store.getMessages("thread_1", { beforeRunId: "run_1" })).toEqual([]);
      expect(await store.getMessages("thread_1", { beforeRunId: "run_2" })).toEqual([userTurn, navigateCall]);
      expect(await store.getMessages("thread_1", { beforeRunId: "no_such_run" })).toEqual([]);
    });

    it("sets aside the answer a regenerating run replaces: gone from the thread, still in the earlier runs' view", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [] });
      await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" } });
      const result = toolMessage("m3", "call_1", '{"status":"succeeded"}');
      await store.beginRun(begin({ runId: "run_2", messages: [result] }));
      await store.commitStep({ threadId: "thread_1", runId: "run_2", messages: [assistantMessage("m4", "Opened.")], pending: [] });
      await store.finishRun({ runId: "run_2", status: "finished", outcome: { type: "success" } });

      await store.beginRun({ ...begin({ runId: "run_3", messages: [] }), supersede: { afterMessageId: "m1", count: 3 } });
      const again = assistantMessage("m5", "Here is the list.");
      await store.commitStep({ threadId: "thread_1", runId: "run_3", messages: [again], pending: [] });

      expect(await store.getMessages("thread_1")).toEqual([userTurn, again]);
      expect(await store.getMessages("thread_1", { excludeRunId: "run_3" })).toEqual([userTurn]);
      expect(await store.getMessages("thread_1", { beforeRunId: "run_2" })).toEqual([userTurn, navigateCall]);
      expect(await store.getMessages("thread_1", { beforeRunId: "run_3" })).toEqual([userTurn]);
      expect(await store.getMessages("thread_1", { withSetAside: true })).toEqual([userTurn, navigateCall, result, assistantMessage("m4", "Opened."), again]);
      await store.finishRun({ runId: "run_3", status: "finished", outcome: { type: "success" } });
      // A set-aside message's id is still taken: the thread's ids name one message forever.
      const before = await snapshot(store, "thread_1");
      expect(await rejection(store.beginRun(begin({ runId: "run_4", messages: [userMessage("m4", "again?")] })))).toBe("history_conflict");
      expect(await snapshot(store, "thread_1")).toEqual(before);
      await store.beginRun(begin({ runId: "run_4", messages: [userMessage("m6", "thanks")] }));
      expect(await store.getMessages("thread_1", { beforeRunId: "run_4" })).toEqual([userTurn, again]);
    });

    it("refuses to set aside an answer the thread has moved past, writing nothing", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: [] });
      await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" } });
      const second = userMessage("m3", "and the approvals");
      await store.beginRun(begin({ runId: "run_2", messages: [second] }));
      await store.finishRun({ runId: "run_2", status: "finished", outcome: { type: "success" } });
      const before = await snapshot(store, "thread_1");

      // Prepared when m2 alone followed m1; m3 came meanwhile.
      expect(await rejection(store.beginRun({ ...begin({ runId: "run_3", messages: [] }), supersede: { afterMessageId: "m1", count: 1 } }))).toBe(
        "history_conflict",
      );
      expect(await snapshot(store, "thread_1")).toEqual(before);
    });
    it("adds a step's messages and pending browser calls in commitStep", async () => {
      const store = await openStore();
      await store.beginRun(begin());

      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: pendingCalls });

      expect(await store.getMessages("thread_1")).toEqual([userTurn, navigateCall]);
      expect(await store.getPendingToolCalls("thread_1")).toEqual(pendingCalls);
      expect(await store.getPendingToolCalls("thread_2")).toEqual([]);
    });

    it("keeps a surface's activity message committed with a step, in order, and in a lost run's snapshot", async () => {
      const store = await openStore();
      await store.beginRun(begin({ events: [started()] }));
      const result = toolMessage("m3", "call_2", { rendered: true });
      const surface = activityMessage("a2ui-surface-call_2", { a2ui_operations: [{ version: "v0.9", createSurface: { surfaceId: "s1" } }] });

      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall, result, surface], pending: [pendingCalls[0]!] });

      expect(await store.getMessages("thread_1")).toEqual([userTurn, navigateCall, result, surface]);
      const ending = await store.endLostRun("run_1", { code: "instance_lost", status: "error", message: "The server stopped." });
      expect(ending?.[0]?.event).toMatchObject({ type: EventType.MESSAGES_SNAPSHOT, messages: [userTurn, navigateCall, result, surface] });
    });

    it("removes the pending calls a new run resolves, and only those", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: pendingCalls });
      await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success", pendingToolCallIds: ["call_1", "call_2"] } });
      const answer = toolMessage("m3", "call_1", { status: "succeeded", stage: "displayed" });

      await store.beginRun(begin({ runId: "run_2", messages: [answer], resolvedToolCallIds: ["call_1"] }));

      expect(await store.getPendingToolCalls("thread_1")).toEqual([pendingCalls[1]]);
      expect(await store.getMessages("thread_1")).toEqual([userTurn, navigateCall, answer]);
    });

    it("records how a run ended in finishRun, and it stops being active", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      clock = T0 + 5_000;
      const usage = [{ provider: "tether.scripted", model: "scripted", inputTokens: 12, outputTokens: 30 }];

      await store.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success", pendingToolCallIds: ["call_1"] }, usage });

      expect(await store.getRun("run_1")).toMatchObject({
        status: "finished",
        outcome: { type: "success", pendingToolCallIds: ["call_1"] },
        usage,
        finishedAt: at(5),
      });
      expect(await store.getActiveRun("thread_1")).toBeUndefined();
    });

    it("records a run's error in finishRun", async () => {
      const store = await openStore();
      await store.beginRun(begin());

      await store.finishRun({ runId: "run_1", status: "error", error: { code: "model_error", message: "The model failed." } });

      const run = await store.getRun("run_1");
      expect(run).toMatchObject({ status: "error", error: { code: "model_error", message: "The model failed." } });
      expect(run?.outcome).toBeUndefined();
    });

    it("keeps the first ending when finishRun is called twice", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      await store.finishRun({ runId: "run_1", status: "cancelled", outcome: { type: "cancelled" } });
      clock = T0 + 9_000;

      await store.finishRun({ runId: "run_1", status: "error", error: { code: "internal", message: "late" } });

      const run = await store.getRun("run_1");
      expect(run).toMatchObject({ status: "cancelled", outcome: { type: "cancelled" }, finishedAt: at(0) });
      expect(run?.error).toBeUndefined();
    });

    it("lists a thread's runs in the order they began", async () => {
      const store = await openStore();
      for (const runId of ["run_b", "run_a", "run_c"]) {
        await store.beginRun(begin({ runId, messages: [] }));
        await store.finishRun({ runId, status: "finished" });
      }
      await store.beginRun(begin({ threadId: "thread_2", runId: "run_0", messages: [] }));

      expect((await store.listRuns("thread_1")).map((run) => run.runId)).toEqual(["run_b", "run_a", "run_c"]);
      expect((await store.listRuns("thread_2")).map((run) => run.runId)).toEqual(["run_0"]);
    });

    it("lists a thread's run links (id, parent, trigger, start) in the order the runs began, without their requests", async () => {
      const store = await openStore();
      await store.beginRun(begin({ runId: "run_a", messages: [] }));
      await store.finishRun({ runId: "run_a", status: "finished" });
      clock = T0 + 1_000;
      const trigger = { kind: "tool-result" as const, parentRunId: "run_a", toolCallIds: ["call_1"] };
      await store.beginRun({ ...begin({ runId: "run_b", messages: [] }), run: { ...begin({ runId: "run_b" }).run, parentRunId: "run_a", trigger } });

      expect(await store.listRunLinks("thread_1")).toEqual([
        { runId: "run_a", createdAt: at(0) },
        { runId: "run_b", parentRunId: "run_a", trigger, createdAt: at(1) },
      ]);
      expect(await store.listRunLinks("thread_2")).toEqual([]);
    });

    it("appends entries to a run's log", async () => {
      const store = await openStore();
      const dropped = { level: "warn" as const, code: "tool_dropped", message: '"x" is not allowed.', details: { tool: "x", reason: "tool_not_allowed" } };
      await store.beginRun({ ...begin(), run: { ...begin().run, log: [dropped] } });

      await store.appendLog("run_1", [{ level: "info", code: "model_step", message: "step 1" }]);
      await store.appendLog("run_1", [{ level: "error", code: "model_error", message: "boom" }]);

      expect((await store.getRun("run_1"))?.log).toEqual([
        dropped,
        { level: "info", code: "model_step", message: "step 1" },
        { level: "error", code: "model_error", message: "boom" },
      ]);
    });

    it("refuses to log to a run that does not exist with run_not_found", async () => {
      const store = await openStore();

      expect(await rejection(store.appendLog("run_404", [{ level: "info", code: "x", message: "y" }]))).toBe("run_not_found");
    });

    it("keeps browser reports per run with the time they arrived", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      const outcome = { toolCallId: "call_1", outcome: { status: "blocked", reason: "blocked_by_mode" } };

      await store.addReport("run_1", outcome);
      clock = T0 + 2_000;
      await store.addReport("run_1", { rendererError: "unknown component" });

      expect(await store.listReports("run_1")).toEqual([
        { receivedAt: at(0), report: outcome },
        { receivedAt: at(2), report: { rendererError: "unknown component" } },
      ]);
      expect(await store.listReports("run_2")).toEqual([]);
    });

    it("refuses, storing nothing, a report past the run's caps with report_limit_exceeded, counting every report the run has", async () => {
      const store = await openStore();
      await store.beginRun(begin());
      const report = { kind: "renderer-error", message: "é".repeat(20) }; // 78 bytes of JSON: 20 of its characters take 2 bytes each
      const caps = { maxReportsPerRun: 3, maxReportBytesPerRun: 200 };
      await store.addReport("run_1", report); // stored without caps (as before the route had them): counted all the same
      await store.addReport("run_1", report, caps);

      expect(await rejection(store.addReport("run_1", report, caps))).toBe("report_limit_exceeded"); // 234 bytes
      await store.addReport("run_1", { kind: "x" }, caps);
      expect(await rejection(store.addReport("run_1", { kind: "y" }, { ...caps, maxReportBytesPerRun: 1000 }))).toBe("report_limit_exceeded"); // a 4th
      expect(await rejection(store.addReport("run_1", { kind: "big", pad: "x".repeat(200) }, { maxReportsPerRun: 10, maxReportBytesPerRun: 150 }))).toBe(
        "report_limit_exceeded",
      );

      expect((await store.listReports("run_1")).map((entry) => entry.report)).toEqual([report, report, { kind: "x" }]);
    });

    it("refuses a report on a run it does not have with run_not_found", async () => {
      const store = await openStore();

      expect(await rejection(store.addReport("run_404", { kind: "x" }))).toBe("run_not_found");
      expect(await store.listReports("run_404")).toEqual([]);
    });

    it("hands out copies, so changing a returned value does not change the store", async () => {
      const store = await openStore();
      await store.beginRun(begin());

      const [message] = await store.getMessages("thread_1");
      (message as { content: string }).content = "changed";
      (await store.getRun("run_1"))!.log.push({ level: "info", code: "x", message: "y" });

      expect(await store.getMessages("thread_1")).toEqual([userTurn]);
      expect((await store.getRun("run_1"))?.log).toEqual([]);
    });

    if (adapter.durable) {
      it("ends runs left running with instance_lost in recoverInterruptedRuns, freeing their threads", async () => {
        const stopped = await openStore();
        await stopped.beginRun(begin({ events: [started()] }));
        await stopped.beginRun(begin({ threadId: "thread_2", runId: "run_2" }));
        await stopped.finishRun({ runId: "run_2", status: "finished" });
        clock = T0 + 3_000;
        const store = await restart(stopped);

        expect(await store.recoverInterruptedRuns()).toBe(1);
        // Its log ends too, past the ids a client may hold, so a client replaying it sees how it ended.
        expect((await store.readEvents("run_1")).map(({ seq, event }) => [seq, event.type, (event as { code?: string }).code])).toEqual([
          [1, "RUN_STARTED", undefined],
          [UNSTORED_EVENT_LIMIT + 2, "MESSAGES_SNAPSHOT", undefined],
          [UNSTORED_EVENT_LIMIT + 3, "RUN_ERROR", "instance_lost"],
        ]);

        expect(await store.getRun("run_1")).toMatchObject({
          status: "error",
          error: { code: "instance_lost", message: "The server stopped while this run was in progress." },
          finishedAt: at(3),
        });
        expect((await store.getRun("run_2"))?.status).toBe("finished");
        expect(await store.getActiveRun("thread_1")).toBeUndefined();
        await store.beginRun(begin({ runId: "run_3", messages: [userMessage("m3", "still there?")] }));
        expect((await store.getActiveRun("thread_1"))?.runId).toBe("run_3");
      });
    } else {
      it("has no interrupted runs to recover, since its runs die with the process", async () => {
        const store = await openStore();
        await store.beginRun(begin());

        expect(await store.recoverInterruptedRuns()).toBe(0);
        expect((await store.getRun("run_1"))?.status).toBe("running");
      });
    }
  });
}

const temporaryFolders: string[] = [];
afterAll(async () => {
  await Promise.all(temporaryFolders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function temporaryDatabase(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "tether-store-"));
  temporaryFolders.push(folder);
  return join(folder, "nested", "tether.db");
}

runStoreContract({ name: "memory", open: async (now) => createMemoryRunStore({ now }), durable: false });
runStoreContract({ name: "sqlite :memory:", open: async (now) => createSqliteRunStore({ filename: ":memory:", now }), durable: true });
/** An adapter whose stores can be opened again on the same data: `where` says where a new store's data lives, `openAt` opens a store there. */
function reopenable<Where>(
  name: string,
  where: () => Promise<Where>,
  openAt: (where: Where, now: () => Date) => Promise<RunStore>,
  storedBytesAt?: (where: Where) => Promise<number>,
): StoreAdapter {
  const places = new Map<RunStore, Where>();
  const openAtPlace = async (place: Where, now: () => Date) => {
    const store = await openAt(place, now);
    places.set(store, place);
    return store;
  };
  return {
    name,
    durable: true,
    open: async (now) => openAtPlace(await where(), now),
    async reopen(store, now) {
      await store.close();
      return openAtPlace(places.get(store)!, now);
    },
    ...(storedBytesAt ? { storedBytes: (store: RunStore) => storedBytesAt(places.get(store)!) } : {}),
  };
}

/** What requests take in a PostgreSQL schema: the runs' inputs and the histories' messages and links (where there are), as text. */
async function pgStoredBytes(query: (sql: string) => Promise<number>, schema: string): Promise<number> {
  const s = quoteIdentifier(schema);
  const inputs = await query(`SELECT COALESCE(SUM(octet_length(input::text)), 0)::float8 AS bytes FROM ${s}.runs`);
  if (!(await query(`SELECT (to_regclass('${s}.history_links') IS NOT NULL)::int::float8 AS bytes`))) return inputs;
  return (
    inputs +
    (await query(`SELECT COALESCE(SUM(octet_length(body::text) + octet_length(content_hash)), 0)::float8 AS bytes FROM ${s}.history_contents`)) +
    (await query(
      `SELECT COALESCE(SUM(octet_length(node_hash) + octet_length(parent_hash) + octet_length(content_hash)), 0)::float8 AS bytes FROM ${s}.history_links`,
    ))
  );
}

runStoreContract(
  reopenable(
    "sqlite file",
    temporaryDatabase,
    async (filename, now) => createSqliteRunStore({ filename, now }),
    async (filename) => {
      const db = new Database(filename, { readonly: true });
      const sum = (sql: string) => (db.prepare(sql).get() as { bytes: number }).bytes;
      try {
        // A store without history tables (the one before them) holds every request inline.
        const histories = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'history_links'").get()
          ? sum("SELECT COALESCE(SUM(length(CAST(body AS BLOB)) + length(content_hash)), 0) AS bytes FROM history_contents") +
            sum("SELECT COALESCE(SUM(length(node_hash) + length(parent_hash) + length(content_hash)), 0) AS bytes FROM history_links")
          : 0;
        return sum("SELECT COALESCE(SUM(length(CAST(input AS BLOB))), 0) AS bytes FROM runs") + histories;
      } finally {
        db.close();
      }
    },
  ),
);

// PostgreSQL, embedded: always. Every store gets a fresh schema in one PGlite per file.
const embedded = embeddedPostgres();
afterAll(() => embedded.close());
runStoreContract(
  reopenable(
    "postgres (PGlite)",
    async () => uniqueSchema("contract"),
    async (schema, now) => createPgRunStore({ pglite: await embedded.database(), schema, now }),
    async (schema) => pgStoredBytes(async (sql) => (await (await embedded.database()).query<{ bytes: number }>(sql)).rows[0]!.bytes, schema),
  ),
);

// PostgreSQL, the server: when one answers (CI has one), each store in a schema of its own, dropped at the end.
const server = await reachablePostgres();
if ("url" in server) {
  const schemas = serverSchemas(server.url);
  afterAll(() => schemas.dropAll());
  runStoreContract(
    reopenable(
      "postgres (server)",
      async () => schemas.make("contract"),
      async (schema, now) => createPgRunStore({ connectionString: server.url, schema, now }),
      async (schema) => {
        const client = new pg.Client({ connectionString: server.url });
        await client.connect();
        try {
          return await pgStoredBytes(async (sql) => (await client.query<{ bytes: number }>(sql)).rows[0]!.bytes, schema);
        } finally {
          await client.end();
        }
      },
    ),
  );
} else {
  console.info(`RunStore contract on a PostgreSQL server: skipped. ${server.skipped}`);
  describe.skip(`RunStore contract: postgres (server) — ${server.skipped}`, () => {
    it("runs when a PostgreSQL server answers", () => {});
  });
}

describe("createSqliteRunStore with a file", () => {
  it("keeps threads, runs, messages, events, pending calls and reports across closing and reopening", async () => {
    const filename = await temporaryDatabase();
    const now = () => new Date(T0);
    const first = createSqliteRunStore({ filename, now });
    await first.beginRun(begin());
    await first.commitStep({ threadId: "thread_1", runId: "run_1", messages: [navigateCall], pending: pendingCalls, facts: [modelCall(1)] });
    await first.appendEvents("run_1", [event(1, "Open"), event(2, "ing")]);
    await first.appendLog("run_1", [{ level: "info", code: "model_step", message: "step 1" }]);
    await first.addReport("run_1", { toolCallId: "call_1", outcome: { status: "succeeded" } });
    await first.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success", pendingToolCallIds: ["call_1", "call_2"] } });
    const before = {
      thread: await first.getThread("thread_1"),
      messages: await first.getMessages("thread_1"),
      pending: await first.getPendingToolCalls("thread_1"),
      runs: await first.listRuns("thread_1"),
      events: await first.readEvents("run_1"),
      reports: await first.listReports("run_1"),
      facts: await first.listFacts("run_1"),
    };
    await first.close();

    const reopened = createSqliteRunStore({ filename, now });
    try {
      expect({
        thread: await reopened.getThread("thread_1"),
        messages: await reopened.getMessages("thread_1"),
        pending: await reopened.getPendingToolCalls("thread_1"),
        runs: await reopened.listRuns("thread_1"),
        events: await reopened.readEvents("run_1"),
        reports: await reopened.listReports("run_1"),
        facts: await reopened.listFacts("run_1"),
      }).toEqual(before);
      expect(before.facts).toEqual([modelCall(1)]);
      expect(before.messages).toEqual([userTurn, navigateCall]);
      expect(before.runs.map((run) => run.status)).toEqual(["finished"]);
      expect(before.events).toHaveLength(2);
      expect(before.reports).toHaveLength(1);
    } finally {
      await reopened.close();
    }
  });

  it("refuses a second store on a file another one in this process holds with data_dir_in_use, naming the folder and saying to share the store", async () => {
    const filename = await temporaryDatabase();
    const first = createSqliteRunStore({ filename });
    try {
      // Another process holding it is named by its pid (test/crash/data-dir.test.ts).
      expect(() => createSqliteRunStore({ filename })).toThrow(
        expect.objectContaining({ code: "data_dir_in_use", message: expect.stringContaining("already open in this process: give every app") }),
      );
      expect(() => createSqliteRunStore({ filename })).toThrow(expect.objectContaining({ message: expect.stringContaining(join(filename, "..")) }));
    } finally {
      await first.close();
    }
    const next = createSqliteRunStore({ filename });
    await next.close();
  });

  it("refuses a database path it cannot use with store_unavailable, naming it and what to do", async () => {
    const folder = await mkdtemp(join(tmpdir(), "tether-store-"));
    temporaryFolders.push(folder);
    const file = join(folder, "a-file");
    await writeFile(file, "not a folder");

    expect(() => createSqliteRunStore({ filename: join(file, "tether.db") })).toThrow(
      expect.objectContaining({ code: "store_unavailable", message: expect.stringMatching(/a-file.*TETHER_DATA_DIR/) }),
    );
  });

  it("recovers a run left running when the previous process stopped", async () => {
    const filename = await temporaryDatabase();
    const crashed = createSqliteRunStore({ filename });
    await crashed.beginRun(begin());
    await crashed.close();

    const restarted = createSqliteRunStore({ filename });
    try {
      expect((await restarted.getActiveRun("thread_1"))?.runId).toBe("run_1");
      expect(await restarted.recoverInterruptedRuns()).toBe(1);
      expect(await restarted.getActiveRun("thread_1")).toBeUndefined();
      expect(await restarted.recoverInterruptedRuns()).toBe(0);
    } finally {
      await restarted.close();
    }
  });
});
