import { useState } from "react";

/**
 * Browser calls waiting on the person: a tool's `execute` waits for the
 * answer given on the call's card, and the card shows what was answered.
 * One per page; answers live as long as the page.
 */
export interface PersonAnswers<Answer> {
  /** Resolves when the person answers this call. */
  wait(toolCallId: string): Promise<Answer>;
  /** Whether this call waits for an answer here (after a reload a card may show a call nobody here waits for). */
  waiting(toolCallId: string): boolean;
  answer(toolCallId: string, answer: Answer): void;
  answered(toolCallId: string): Answer | undefined;
  /** How many calls wait for an answer now. */
  open(): number;
}

export function usePersonAnswers<Answer>(): PersonAnswers<Answer> {
  const [answers] = useState(() => createPersonAnswers<Answer>());
  return answers;
}

function createPersonAnswers<Answer>(): PersonAnswers<Answer> {
  const waiting = new Map<string, (answer: Answer) => void>();
  const given = new Map<string, Answer>();
  return {
    wait: (toolCallId) => new Promise<Answer>((resolve) => waiting.set(toolCallId, resolve)),
    waiting: (toolCallId) => waiting.has(toolCallId),
    answer(toolCallId, answer) {
      const resolve = waiting.get(toolCallId);
      if (!resolve) return;
      waiting.delete(toolCallId);
      given.set(toolCallId, answer);
      resolve(answer);
    },
    answered: (toolCallId) => given.get(toolCallId),
    open: () => waiting.size,
  };
}
