import { buildResumeArray } from "@ag-ui/client";
import type { ResumeEntry } from "@ag-ui/core";
import { TetherError, type ApprovalResponse } from "../../protocol/index.ts";
import type { TetherHttpAgent } from "../transport/index.ts";

export interface InterruptAnswers {
  /**
   * Keeps a person's answer to one open interrupt. Once every open interrupt has one, returns them as the resume
   * that goes back in one run, with the interrupts' ids; undefined while some are still open.
   */
  give(interruptId: string, response: ApprovalResponse | "cancel"): { resume: ResumeEntry[]; interruptIds: string[] } | undefined;
  /** Moving on answers what is still open: cancelled, so nothing runs that nobody approved. */
  movingOn(): ResumeEntry[] | undefined;
  /** Forgets the answers: a run carried them. */
  clear(): void;
}

/** The answers a page gives to its agent's open interrupts (read from `agent.pendingInterrupts`), until a run carries them. */
export function createInterruptAnswers(agent: TetherHttpAgent): InterruptAnswers {
  const answers = new Map<string, ResumeEntry>();
  return {
    give(interruptId, response) {
      const open = agent.pendingInterrupts;
      if (!open.some((interrupt) => interrupt.id === interruptId))
        throw new TetherError("interrupt_unknown", `Nothing is waiting for an answer to ${interruptId}.`);
      answers.set(interruptId, response === "cancel" ? { interruptId, status: "cancelled" } : { interruptId, status: "resolved", payload: response });
      if (open.some((interrupt) => !answers.has(interrupt.id))) return undefined; // the rest are still open
      const resume = buildResumeArray(open, Object.fromEntries(answers));
      return { resume, interruptIds: open.map((interrupt) => interrupt.id) };
    },
    movingOn() {
      const open = agent.pendingInterrupts;
      return open.length > 0
        ? open.map((interrupt): ResumeEntry => answers.get(interrupt.id) ?? { interruptId: interrupt.id, status: "cancelled" })
        : undefined;
    },
    clear: () => answers.clear(),
  };
}
