import { describe, expect, it } from "vitest";
import type { StoredThread } from "./load-thread.ts";
import { owedCalls } from "./owed-calls.ts";

const asked = {
  id: "a1",
  role: "assistant" as const,
  content: "Ordering…",
  toolCalls: [{ id: "call_1", type: "function" as const, function: { name: "order", arguments: "{}" } }],
};
const thread = (patch: Partial<StoredThread>): StoredThread => ({
  messages: [{ id: "u1", role: "user", content: "order it" }, asked],
  activeRun: null,
  pendingToolCalls: [],
  pendingInterrupts: [],
  ...patch,
});
const mine = (runId: string) => runId !== "run_other";

describe("owedCalls", () => {
  it("takes the pending calls the server keeps, from runs this tab started", () => {
    const pending = [
      { toolCallId: "call_1", runId: "run_1" },
      { toolCallId: "call_2", runId: "run_other" },
    ];
    expect(owedCalls(thread({ pendingToolCalls: pending }), mine)).toEqual([{ toolCallId: "call_1", runId: "run_1" }]);
  });

  it("reads them from the last run's end when the server keeps none (a stateless agent)", () => {
    const runs = [
      { runId: "run_1", status: "finished", outcome: { type: "interrupt" } },
      { runId: "run_2", status: "finished", outcome: { type: "success", pendingToolCallIds: ["call_1"] } },
    ];
    expect(owedCalls(thread({ runs }), mine)).toEqual([{ toolCallId: "call_1", runId: "run_2" }]);
  });

  it("owes nothing for a call whose result the thread has, a run another window started, or a run still going", () => {
    const ended = (runId: string, status = "finished") => [{ runId, status, outcome: { type: "success", pendingToolCallIds: ["call_1"] } }];
    const answered = thread({ runs: ended("run_2"), messages: [...thread({}).messages, { id: "t1", role: "tool", toolCallId: "call_1", content: "{}" }] });
    expect(owedCalls(answered, mine)).toEqual([]);
    expect(owedCalls(thread({ runs: ended("run_other") }), mine)).toEqual([]);
    expect(owedCalls(thread({ runs: ended("run_2", "running") }), mine)).toEqual([]);
    expect(owedCalls(thread({}), mine)).toEqual([]);
  });
});
