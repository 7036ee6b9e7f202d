/**
 * What the two readers of run records (the viewer at `/runs/` and `tether
 * record`) both need to say about one: whether they can read it, a kept value
 * as text with what was cut, and which approvals a run asked and how they were
 * answered. Pure functions over the documents; no fetching.
 *
 * @module
 */
import { TetherError } from "./errors.ts";
import { markCutsAt, isMarkedCut } from "./record-cuts.ts";
import type { Cut, Kept, RecordTriggerKind, RunRecordDocument } from "./run-record.ts";

/** The record formats these readers understand (a format 1 record lists no cuts: every value in it reads as data). */
export const RUN_RECORD_FORMATS: readonly number[] = [1, 2];

/** Throws `invalid_input` for a body that is not a run record these readers know (another format, or not a record at all). */
export function assertRunRecord(body: unknown): asserts body is RunRecordDocument {
  const format = (body as { format?: unknown } | null | undefined)?.format;
  if (typeof format !== "number" || typeof (body as { runId?: unknown }).runId !== "string") {
    throw new TetherError("invalid_input", "The answer is not a run record (no format or runId): is this a Tether server?");
  }
  if (!RUN_RECORD_FORMATS.includes(format)) {
    throw new TetherError("invalid_input", `This run record has format ${format}; this reader knows format ${RUN_RECORD_FORMATS.join(", ")}. Update Tether.`);
  }
}

/**
 * A run record as a reader takes it from the server's JSON (checked as
 * `assertRunRecord` does): the values at the places its `cuts` lists are
 * marked, so `isCut` tells the server's cuts from look-alikes a client sent.
 */
export function readRunRecord(body: unknown): RunRecordDocument {
  assertRunRecord(body);
  const cuts = (body as { cuts?: unknown }).cuts;
  if (Array.isArray(cuts)) markCutsAt(body, cuts);
  return body;
}

/** Whether a kept value is a cut the server made: read through `readRunRecord`, an object shaped like a cut anywhere else is data. */
export function isCut(value: unknown): value is Cut {
  return isMarkedCut(value) && (value as Cut).cut === true && typeof (value as Cut).head === "string" && typeof (value as Cut).length === "number";
}

/** A kept value as text: a string as it is, anything else as JSON; a cut value as its head, with what was cut. */
export interface KeptText {
  text: string;
  cut?: { length: number; sha256: string };
}

export function keptText(value: Kept<unknown>, indent?: number): KeptText {
  if (isCut(value)) return { text: value.head, cut: { length: value.length, sha256: value.sha256 } };
  if (typeof value === "string") return { text: value };
  if (value === undefined) return { text: "" };
  return { text: JSON.stringify(value, null, indent) ?? String(value) };
}

/** "cut: 4200 chars, sha256:ab12…" for a cut value, as both readers print it. */
export function describeCut(cut: { length: number; sha256: string }): string {
  const hash = cut.sha256.replace(/^sha256:/, "");
  return `cut: ${cut.length} chars, sha256 ${hash.slice(0, 12)}…`;
}

export const TRIGGER_LABELS: Record<RecordTriggerKind, string> = {
  "user-message": "a user message",
  "tool-result": "a browser tool's outcome",
  "ui-action": "a click on a generated view",
  resume: "an approval answer",
  regenerate: "a request for another answer",
};

/** An approval a run asked for, and its answer when a later run carried one. */
export interface AskedApproval {
  interruptId: string;
  toolCallId: string;
  toolName: string;
  arguments: Kept<string>;
  answer?: { status: "resolved" | "cancelled"; approved?: boolean; runId: string };
}

/**
 * The approvals `record` asked for (its tool calls in status `approval`),
 * each with the answer found in the triggers of `nextRecords` (the records of
 * its next runs, as many as the reader fetched).
 */
export function approvalsOf(record: RunRecordDocument, nextRecords: readonly RunRecordDocument[] = []): AskedApproval[] {
  const answers = new Map<string, NonNullable<AskedApproval["answer"]>>();
  for (const next of nextRecords) {
    for (const answer of next.start.trigger.answers ?? []) {
      answers.set(answer.interruptId, {
        status: answer.status,
        ...(answer.approved !== undefined ? { approved: answer.approved } : {}),
        runId: next.runId,
      });
    }
  }
  const asked: AskedApproval[] = [];
  for (const call of record.modelCalls) {
    for (const toolCall of call.toolCalls) {
      if (toolCall.status !== "approval" && toolCall.interruptId === undefined) continue;
      const interruptId = toolCall.interruptId ?? toolCall.toolCallId;
      const answer = answers.get(interruptId);
      asked.push({ interruptId, toolCallId: toolCall.toolCallId, toolName: toolCall.toolName, arguments: toolCall.arguments, ...(answer ? { answer } : {}) });
    }
  }
  return asked;
}

/** An answer in words: "approved", "rejected", "cancelled", or "not answered yet". */
export function describeAnswer(answer: AskedApproval["answer"]): string {
  if (!answer) return "not answered yet";
  if (answer.status === "cancelled") return "cancelled";
  return answer.approved === false ? "rejected" : "approved";
}

/** What a browser tool call did, as far as the records say: a report the browser posted, or the tool message a next run carried. */
export type BrowserOutcome = { from: "report"; body: Kept<unknown>; ledToRunId?: string } | { from: "tool-message"; runId: string; content: Kept<unknown> };

/**
 * The outcome of the browser call `toolCallId` of `record`: the browser's
 * report to this run if it sent one, else the tool message of the next run
 * that carried it (a follow-up tool's outcome travels that way).
 */
export function browserOutcomeOf(toolCallId: string, record: RunRecordDocument, nextRecords: readonly RunRecordDocument[] = []): BrowserOutcome | undefined {
  const report = record.reports.find((entry) => entry.kind === "tool-outcome" && entry.toolCallId === toolCallId);
  if (report) return { from: "report", body: report.body, ...(report.ledToRunId ? { ledToRunId: report.ledToRunId } : {}) };
  const next = nextRecords.find((candidate) => candidate.start.trigger.toolCallIds?.includes(toolCallId));
  if (!next) return undefined;
  const messages = next.input.messages;
  // A cut history cannot be searched; the run that carried the outcome is still worth naming.
  const message = isCut(messages)
    ? undefined
    : (messages as Array<{ role?: unknown; toolCallId?: unknown; content?: unknown }>).find(
        (entry) => entry?.role === "tool" && entry.toolCallId === toolCallId,
      );
  return { from: "tool-message", runId: next.runId, content: message?.content ?? "(in the run's history, which was cut)" };
}
