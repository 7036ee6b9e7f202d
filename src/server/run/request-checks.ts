import type { RunAgentInput } from "@ag-ui/core";
import { TetherError, TriggerSchema, formatIssues, isValidId, readTetherProps, type Trigger } from "../../protocol/index.ts";

/** Refuses a request whose ids are not ids: they become keys, SSE ids and file names downstream. */
export function checkIds(input: RunAgentInput): void {
  const ids: Array<[string, unknown]> = [
    ["threadId", input.threadId],
    ["runId", input.runId],
  ];
  if (input.parentRunId !== undefined) ids.push(["parentRunId", input.parentRunId]);
  for (const message of input.messages) {
    ids.push(["message id", message.id]);
    if (message.role === "assistant") for (const call of message.toolCalls ?? []) ids.push(["tool call id", call.id]);
    if (message.role === "tool") ids.push(["toolCallId", message.toolCallId]);
  }
  for (const [name, value] of ids) {
    if (!isValidId(value)) {
      const shown = typeof value === "string" ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : String(value);
      throw new TetherError("invalid_id", `The ${name} ${shown} is not a valid id: use 1-128 letters, digits, "_", ".", ":" or "-".`);
    }
  }
}

/** The request's trigger (`forwardedProps.tether.trigger`), checked; undefined when it names none. */
export function parseTrigger(input: RunAgentInput): Trigger | undefined {
  const raw = readTetherProps(input.forwardedProps).trigger;
  if (raw === undefined) return undefined;
  const parsed = TriggerSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TetherError("invalid_trigger", `forwardedProps.tether.trigger is not a valid trigger: ${formatIssues(parsed.error.issues, "(trigger)")}.`);
  }
  return parsed.data;
}
