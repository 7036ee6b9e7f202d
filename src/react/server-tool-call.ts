import type { ReactNode } from "react";
import type { ToolActivity } from "../client/index.ts";
import { parsePartialJson } from "./parse-partial-json.ts";

/**
 * How far a server tool's call got: its arguments still `streaming` in,
 * `running` once they are complete (or while it waits for an approval), then
 * `done` with its result or `failed` (an `{ error }` result, a rejected or
 * cancelled approval, or a call that ended without one).
 */
export type ServerToolCallStatus = "streaming" | "running" | "done" | "failed";

/** One call of a server tool (or an upstream or ADK agent's own tool), as `useToolRenderer`'s render sees it. */
export interface ServerToolCallView<Args = Record<string, unknown>, Result = unknown> {
  toolCallId: string;
  toolName: string;
  status: ServerToolCallStatus;
  /**
   * What has arrived of the arguments, best effort: while they stream a string may be cut mid-word and
   * the value being written left out; once they are complete, the arguments. Not checked against any schema.
   */
  partialArgs: Partial<Args> | undefined;
  /** The arguments once they are complete and valid JSON; undefined while they stream. Not checked against any schema. */
  args: Args | undefined;
  /** The tool's result once it came, JSON text parsed (other text as it is); on failure, what the tool answered. */
  result: Result | undefined;
  /** Why it failed, in words, when `status` is `failed`. */
  error?: string;
  /** The call's status on the tool timeline (`awaiting` an approval, `rejected` …), for a view that tells them apart. */
  activityStatus: ToolActivity["status"];
}

/** Draws a server tool's calls in the conversation, in place of their line. */
export type ServerToolRenderer<Args = any, Result = any> = (call: ServerToolCallView<Args, Result>) => ReactNode;

const FAILED: ReadonlySet<ToolActivity["status"]> = new Set(["error", "failed", "blocked", "cancelled", "rejected", "unknown"]);

/**
 * What a server tool's renderer is given, from the call's line on the timeline, the arguments
 * the assistant message holds (growing as they stream) and the content of its tool message.
 */
export function serverToolCallView(activity: ToolActivity, argumentsText: string | undefined, resultContent: unknown): ServerToolCallView {
  // A call past `calling` with no argument text was made without any.
  const args = completeArguments(argumentsText) ?? (!argumentsText && activity.status !== "calling" ? {} : undefined);
  const partialArgs = args ?? (argumentsText ? (parsePartialJson(argumentsText) as Record<string, unknown> | undefined) : undefined);
  const status: ServerToolCallStatus = FAILED.has(activity.status)
    ? "failed"
    : activity.status === "done" || activity.status === "succeeded"
      ? "done"
      : activity.status === "calling" && args === undefined
        ? "streaming"
        : "running";
  return {
    toolCallId: activity.toolCallId,
    toolName: activity.toolName,
    status,
    partialArgs: isRecord(partialArgs) ? partialArgs : undefined,
    args,
    result: resultContent === undefined ? undefined : parseResult(resultContent),
    ...(status === "failed" ? { error: activity.message ?? activity.reason?.replaceAll("_", " ") ?? "It did not finish." } : {}),
    activityStatus: activity.status,
  };
}

/** The arguments, once their text is a whole JSON object: an object that parses has had its closing brace, so nothing more can follow it. */
function completeArguments(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A result as the tool gave it: tool messages carry text, so JSON text is parsed back; other text stays text. */
function parseResult(content: unknown): unknown {
  if (typeof content !== "string") return content;
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
