import type { Message } from "@ag-ui/core";
import { expect, it } from "vitest";
import type { BeginRun, RunStore } from "@tether-agent/tether/store";
import { assistantMessage, toolCall, toolMessage, userMessage } from "../fixtures/messages.ts";

/**
 * The RunStore contract's cases about run requests (see run-input-history.ts):
 * runs listed and looked up without them, read back exactly, and a stateless
 * thread's histories stored once by content. Called inside each adapter's
 * contract suite; `storedBytes`, where the adapter can measure it, gives the
 * bytes the store holds for requests (runs' inputs and the histories).
 */
export function runInputContract(openStore: () => Promise<RunStore>, storedBytes?: (store: RunStore) => Promise<number>) {
  it("lists and looks up runs without their requests, however large, and reads a request only through readRunInput", async () => {
    const store = await openStore();
    const history = conversation(40, 2000);
    await store.beginRun(clientRun("thread_1", "run_1", history));
    const listed = [await store.getRun("run_1"), await store.getActiveRun("thread_1"), ...(await store.listRuns("thread_1"))];

    expect(listed).toHaveLength(3);
    for (const run of listed) {
      expect(run).toMatchObject({ runId: "run_1", status: "running" });
      expect(run).not.toHaveProperty("input");
      expect(JSON.stringify(run).length).toBeLessThan(2000);
    }
    expect(JSON.stringify(await store.readRunInput("run_1"))).toBe(JSON.stringify(requestOf("thread_1", "run_1", history)));
    expect(await store.readRunInput("run_unknown")).toBeUndefined();
  });

  it("reads every request back exactly as it began: growing, cut and branched histories, repeats, other threads, no history", async () => {
    const store = await openStore();
    const history = conversation(12, 300);
    const branched = [...history.slice(0, 5), userMessage("u-edit", "the same question, asked differently: ünïcödé ✓")];
    const inputs: Array<[string, string, unknown]> = [
      ["thread_1", "run_1", requestOf("thread_1", "run_1", history.slice(0, 2))],
      ["thread_1", "run_2", requestOf("thread_1", "run_2", history.slice(0, 8))],
      ["thread_1", "run_3", requestOf("thread_1", "run_3", history)],
      // A regenerated answer: the history cut back, then a new message where the old one was.
      ["thread_1", "run_4", requestOf("thread_1", "run_4", branched)],
      // The same message twice in one history, and the first of a history again on its own.
      ["thread_1", "run_5", requestOf("thread_1", "run_5", [history[0]!, history[0]!, history[1]!])],
      ["thread_1", "run_6", requestOf("thread_1", "run_6", [history[0]!])],
      // Another thread with the same messages keeps its own.
      ["thread_2", "run_7", requestOf("thread_2", "run_7", history)],
      ["thread_1", "run_8", { ...requestOf("thread_1", "run_8", []), state: { nested: { list: [1, "two", null] } } }],
      ["thread_1", "run_9", { threadId: "thread_1", runId: "run_9", messageIds: ["m1", "m2"] }],
    ];
    for (const [threadId, runId, input] of inputs) {
      await store.beginRun({ ...clientRun(threadId, runId, []), run: { runId, userId: "kim", input, log: [] } });
      await store.finishRun({ runId, status: "finished", outcome: { type: "success" } });
    }
    for (const [, runId, input] of inputs) expect(JSON.stringify(await store.readRunInput(runId))).toBe(JSON.stringify(input));
  });

  it.skipIf(!storedBytes)("stores a stateless thread's histories once, by content: in proportion to what is new, not to what is resent", async () => {
    const store = await openStore();
    const runs = 100;
    const history = conversation(runs * 2, 1000);
    let sent = 0;
    for (let turn = 1; turn <= runs; turn++) {
      const request = requestOf("thread_1", `run_${turn}`, history.slice(0, turn * 2));
      sent += JSON.stringify(request).length;
      await store.beginRun({ ...clientRun("thread_1", `run_${turn}`, []), run: { runId: `run_${turn}`, userId: "kim", input: request, log: [] } });
      await store.finishRun({ runId: `run_${turn}`, status: "finished", outcome: { type: "success" } });
    }
    const distinct = JSON.stringify(history).length;
    const stored = await storedBytes!(store);

    // Each message once, with its hash and its link (three hashes): well under twice the distinct content, the requests' other fields aside.
    expect(stored).toBeLessThan(2 * distinct + runs * 500);
    expect(sent).toBeGreaterThan(40 * distinct);
    expect(JSON.stringify(await store.readRunInput(`run_${runs}`))).toBe(JSON.stringify(requestOf("thread_1", `run_${runs}`, history)));
  });
}

/** A stateless client's request: the whole history, as validated. */
function requestOf(threadId: string, runId: string, messages: Message[]) {
  return { threadId, runId, state: {}, messages, tools: [], context: [], forwardedProps: {} };
}

function clientRun(threadId: string, runId: string, messages: Message[]): BeginRun {
  return {
    thread: { threadId, agentId: "recipes", ownerId: "kim" },
    run: { runId, userId: "kim", input: requestOf(threadId, runId, messages), log: [] },
    events: [],
    messages: [],
    resolvedToolCallIds: [],
  };
}

/** `count` messages of about `size` characters each: user turns, answers, a tool call and its result now and then. */
function conversation(count: number, size: number): Message[] {
  const messages: Message[] = [];
  for (let index = 0; messages.length < count; index++) {
    const words = `turn ${index}: ${"some words of a long recipe conversation ".repeat(Math.ceil(size / 40))}`.slice(0, size);
    messages.push(userMessage(`u${index}`, words));
    if (index % 5 === 4) {
      messages.push(assistantMessage(`a${index}`, "", [toolCall(`call${index}`, "offer_recipes", { query: words.slice(0, 40) })]));
      messages.push(toolMessage(`t${index}`, `call${index}`, { shown: words.slice(0, size - 40) }));
    } else {
      messages.push(assistantMessage(`a${index}`, words));
    }
  }
  return messages.slice(0, count);
}
