import type { Message } from "@ag-ui/core";
import type { RecordStart } from "../../protocol/index.ts";
import type { StoredRun } from "../store/index.ts";
import type { RunRequestSummary } from "../store/shared/index.ts";
import { keep } from "./keep.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import { redactString } from "./redact/index.ts";

export type RecordTrigger = RecordStart["trigger"];

/**
 * What started a run: its stored trigger when the client said
 * (`forwardedProps.tether.trigger`), else what its request shows (answers to
 * approvals, a browser's tool results, or a user's message), as summarized
 * when the run began (`summarizeRunRequest`).
 */
export function runTrigger(run: StoredRun, request: RunRequestSummary): RecordTrigger {
  const kind = run.trigger?.kind ?? (request.resume.length > 0 ? "resume" : request.lastRole === "tool" ? "tool-result" : "user-message");
  const trigger: RecordTrigger = { kind };
  if (kind === "regenerate" && run.trigger?.messageId) trigger.messageId = run.trigger.messageId;
  if (kind === "user-message" && request.lastUserMessageId) trigger.messageId = request.lastUserMessageId;
  if (kind === "tool-result") {
    trigger.toolCallIds = run.trigger?.toolCallIds ?? request.trailingToolCallIds;
  }
  if (request.resume.length > 0) trigger.answers = request.resume.map((answer) => ({ ...answer }));
  const action = run.trigger?.action as
    { name?: unknown; surfaceId?: unknown; sourceComponentId?: unknown; context?: unknown; timestamp?: unknown } | undefined;
  if (kind === "ui-action" && action) {
    trigger.action = {
      name: String(action.name ?? ""),
      surfaceId: String(action.surfaceId ?? ""),
      sourceComponentId: String(action.sourceComponentId ?? ""),
      context: keep(action.context ?? {}, RECORD_LIMITS.value),
      timestamp: String(action.timestamp ?? ""),
    };
  }
  return trigger;
}

/** The trigger in a few words, for a thread's chain: what the user said, which outcome, which answer, which click. */
export function summarizeTrigger(trigger: RecordTrigger, byId: Map<string, Message>, toolNames: Map<string, string>): string {
  switch (trigger.kind) {
    case "user-message": {
      const content = trigger.messageId ? byId.get(trigger.messageId)?.content : undefined;
      return typeof content === "string" ? clip(content) : "a user message";
    }
    case "tool-result": {
      const names = [...new Set((trigger.toolCallIds ?? []).map((id) => toolNames.get(id) ?? id))];
      return names.length > 0 ? clip(`outcome of ${names.join(", ")}`) : "a tool outcome";
    }
    case "resume": {
      const answers = (trigger.answers ?? []).map((answer) =>
        answer.status === "cancelled" ? "cancelled" : answer.approved === false ? "rejected" : answer.approved === true ? "approved" : "answered",
      );
      return `approval: ${answers.join(", ") || "answered"}`;
    }
    case "ui-action":
      return trigger.action ? clip(`clicked ${trigger.action.name} on ${trigger.action.surfaceId}`) : "a click on a surface";
    case "regenerate": {
      const content = trigger.messageId ? byId.get(trigger.messageId)?.content : undefined;
      return typeof content === "string" ? clip(`answer again: ${content}`) : "another answer";
    }
  }
}

const SUMMARY_CHARS = 80;

function clip(text: string): string {
  const line = redactString(text).replace(/\s+/g, " ").trim();
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}
