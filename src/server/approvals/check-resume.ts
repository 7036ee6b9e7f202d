import type { Message, ResumeEntry } from "@ag-ui/core";
import { TetherError, TOOL_APPROVAL } from "../../protocol/index.ts";
import type { HistoryMode } from "../history/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { RunStore, StoredInterrupt } from "../store/index.ts";
import type { ToolSet } from "../tools/index.ts";
import { hashArguments, isSignedInterruptId, verifyInterruptId } from "./interrupt-token.ts";
import { sameAnswer } from "./same-answer.ts";

export interface ResumeCheck {
  /** Answers to act on in this run, in the order they came. */
  answers: Array<{ stored: StoredInterrupt; answer: ResumeEntry }>;
  /** Answers repeated word for word (a double click, a retry): already acted on, by `resolvedByRunId`. */
  repeated: StoredInterrupt[];
}

export interface ResumeContext {
  resume: ResumeEntry[];
  threadId: string;
  user: TetherUser;
  mode: HistoryMode;
  /** The request's messages: in client mode, where the call an interrupt is about is found. */
  messages: Message[];
  toolSet: ToolSet;
  store: RunStore;
  secret: string;
  /** The clock expiry is judged by: the one the approval was asked by (see RunStore.now), read only when an answer needs it. */
  now(): Promise<Date>;
}

/**
 * Checks a run's `resume` against the thread's interrupts. Every pending
 * interrupt must be answered; every answer must name an interrupt of this
 * thread and user, still open (or answered the very same way before), not
 * expired unless it is a cancellation, and shaped as its `responseSchema`.
 */
export async function checkResume(context: ResumeContext): Promise<ResumeCheck> {
  const { resume, threadId, user } = context;
  const answers: ResumeCheck["answers"] = [];
  const repeated: StoredInterrupt[] = [];
  const seen = new Set<string>();
  for (const answer of resume) {
    if (seen.has(answer.interruptId)) throw new TetherError("resume_invalid", `Interrupt ${short(answer.interruptId)} is answered twice in this request.`);
    seen.add(answer.interruptId);
    const stored = await findInterrupt(answer.interruptId, context);
    if (stored.threadId !== threadId || stored.userId !== user.id) {
      throw new TetherError("interrupt_thread_mismatch", `Interrupt ${short(answer.interruptId)} belongs to another thread or user.`);
    }
    if (stored.status !== "pending") {
      if (stored.answer && sameAnswer(stored.answer, answer)) {
        repeated.push(stored);
        continue;
      }
      throw new TetherError("resume_conflict", `Interrupt ${short(answer.interruptId)} was already answered differently; an interrupt is answered once.`);
    }
    if (answer.status === "resolved") {
      const expiresAt = stored.interrupt.expiresAt;
      if (expiresAt && Date.parse(expiresAt) <= (await context.now()).getTime()) {
        throw new TetherError("interrupt_expired", `Interrupt ${short(answer.interruptId)} expired at ${expiresAt}; it can only be cancelled now.`);
      }
      const validate = context.toolSet.checker.compile(stored.interrupt.responseSchema ?? {}, `the response to interrupt ${short(answer.interruptId)}`);
      if (!validate(answer.payload)) {
        const problems = (validate.errors ?? []).map((error) => `${error.instancePath || "(payload)"} ${error.message}`).join("; ");
        throw new TetherError("resume_invalid", `The answer to interrupt ${short(answer.interruptId)} does not match its response schema: ${problems}.`);
      }
    }
    answers.push({ stored, answer });
  }
  if (context.mode === "server") {
    const missing = (await context.store.getPendingInterrupts(threadId)).filter((pending) => !seen.has(pending.interrupt.id));
    if (missing.length > 0) {
      throw new TetherError(
        "interrupt_pending",
        `This thread waits for an answer to ${missing.map((pending) => pending.interrupt.id).join(", ")}; send it in resume (or cancel it) with this run.`,
        { details: { interruptIds: missing.map((pending) => pending.interrupt.id) } },
      );
    }
  }
  return { answers, repeated };
}

/** The stored interrupt; in client mode the signed id alone is enough, checked against the call it names. */
async function findInterrupt(interruptId: string, context: ResumeContext): Promise<StoredInterrupt> {
  const stored = await context.store.getInterrupt(interruptId);
  if (context.mode === "server" || !isSignedInterruptId(interruptId)) {
    if (!stored) throw new TetherError("interrupt_unknown", `There is no interrupt ${short(interruptId)}.`);
    return stored;
  }
  const claims = verifyInterruptId(interruptId, context.secret);
  if (!claims) throw new TetherError("interrupt_unknown", `Interrupt ${short(interruptId)} is not one this server signed, or it was altered.`);
  const call = context.messages
    .flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))
    .find((candidate) => candidate.id === claims.toolCallId);
  if (!call || call.function.name !== claims.toolName || hashArguments(call.function.arguments) !== claims.argumentsHash) {
    throw new TetherError(
      "resume_invalid",
      `The history does not hold the call interrupt ${short(interruptId)} asked about, with the same arguments; an approval applies to exactly what was shown.`,
    );
  }
  if (stored) return stored;
  // Not in this store, but the history the client sent already holds the call's result: another
  // instance (or this one, before a restart that lost its store) acted on the answer. An answer is acted on once.
  if (context.messages.some((message) => message.role === "tool" && message.toolCallId === claims.toolCallId)) {
    throw new TetherError(
      "resume_conflict",
      `Interrupt ${short(interruptId)} was already acted on: the history holds the result of call ${claims.toolCallId}. An approval is acted on once.`,
    );
  }
  // Not in the store (a restart without it): rebuild what was asked from the signed claims.
  const tool = context.toolSet.tools.get(claims.toolName);
  if (!tool?.approval)
    throw new TetherError("interrupt_unknown", `Interrupt ${short(interruptId)} is about ${claims.toolName}, which needs no approval in this run.`);
  let args: unknown = {};
  try {
    args = JSON.parse(call.function.arguments);
  } catch {
    // Arguments that do not parse were never approvable; the tool's schema check refuses them later.
  }
  return {
    interrupt: {
      id: interruptId,
      reason: TOOL_APPROVAL,
      message: tool.approval.message(args, context.user),
      toolCallId: claims.toolCallId,
      responseSchema: tool.approval.responseSchema,
      expiresAt: claims.expiresAt,
    },
    threadId: claims.threadId,
    runId: "",
    userId: claims.userId,
    toolCallId: claims.toolCallId,
    toolName: claims.toolName,
    arguments: call.function.arguments,
    status: "pending",
  };
}

function short(id: string): string {
  return id.length > 40 ? `${id.slice(0, 37)}…` : id;
}
