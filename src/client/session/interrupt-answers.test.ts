import type { Interrupt } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { catchTetherError } from "../../testing/index.ts";
import { createInterruptAnswers } from "./interrupt-answers.ts";
import type { TetherHttpAgent } from "../transport/index.ts";

/** Only what the answers read of the agent: its open interrupts, which a run's end replaces. */
function agentWaitingOn(...ids: string[]) {
  const agent = { pendingInterrupts: ids.map((id) => ({ id, reason: "tool_approval" }) as Interrupt) };
  return { agent, answers: createInterruptAnswers(agent as unknown as TetherHttpAgent) };
}

describe("the answers to a run's open interrupts", () => {
  it("waits until every open interrupt has an answer, then gives them all back as one resume", () => {
    const { answers } = agentWaitingOn("i1", "i2");
    expect(answers.give("i2", "cancel")).toBeUndefined();
    const given = answers.give("i1", { approved: true, comment: "fine" });
    expect(given?.interruptIds).toEqual(["i1", "i2"]);
    expect(given?.resume).toEqual([
      { interruptId: "i1", status: "resolved", payload: { approved: true, comment: "fine" } },
      { interruptId: "i2", status: "cancelled" },
    ]);
  });

  it("refuses an answer to an interrupt nothing is waiting on, and keeps none for it", () => {
    const { answers } = agentWaitingOn("i1");
    expect(catchTetherError(() => answers.give("elsewhere", { approved: true })).code).toBe("interrupt_unknown");
    expect(answers.movingOn()).toEqual([{ interruptId: "i1", status: "cancelled" }]);
  });

  it("moves on with the answers given and cancels the rest, so nothing runs that nobody approved", () => {
    const { answers } = agentWaitingOn("i1", "i2");
    answers.give("i1", { approved: true });
    expect(answers.movingOn()).toEqual([
      { interruptId: "i1", status: "resolved", payload: { approved: true } },
      { interruptId: "i2", status: "cancelled" },
    ]);
  });

  it("has nothing to move on from when nothing is open, and forgets its answers once a run carried them", () => {
    const { agent, answers } = agentWaitingOn("i1", "i2");
    answers.give("i1", { approved: false });
    answers.clear();
    expect(answers.movingOn()).toEqual([
      { interruptId: "i1", status: "cancelled" },
      { interruptId: "i2", status: "cancelled" },
    ]);
    agent.pendingInterrupts = [];
    expect(answers.movingOn()).toBeUndefined();
  });
});
