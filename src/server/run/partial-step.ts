import { EventType, type Message, type ToolMessage } from "@ag-ui/core";
import { TetherError } from "../../protocol/index.ts";
import type { RunChannel } from "../hub/index.ts";
import { errorContent, sendToolResult, type ToolCall } from "../tools/index.ts";
import type { IdSource } from "./ids.ts";
import type { StepCall, StepResult } from "./model-step.ts";
import type { NewRun } from "./prepare-run.ts";
import { placeResults, produced } from "./step-messages.ts";
import { stopReason } from "./stop-reason.ts";

/** What ending a step early needs of the run: its signal, its ids, where its events go. */
interface StepServices {
  signal: AbortSignal;
  ids: IdSource;
  channel: RunChannel;
}

/**
 * Keeps what a failed or cancelled step produced, so the stored thread matches
 * what the client saw. Every call that will not run gets a result saying so;
 * browser calls whose arguments were complete stay pending, since the browser
 * may already have acted on them.
 */
export async function keepPartialStep(
  result: StepResult,
  run: NewRun,
  services: StepServices,
  commit: (messages: Message[], pending: ToolCall[]) => Promise<void>,
) {
  const kept = produced(result);
  if (kept.length === 0) return;
  const reason = result.aborted
    ? (stopReason(services.signal) ?? new TetherError("run_cancelled", "The run was cancelled before this call ran."))
    : failedBefore(result.error);
  const pending: StepCall[] = [];
  const results: ToolMessage[] = [];
  for (const call of result.calls) {
    const tool = run.toolSet.tools.get(call.toolName);
    if (call.ended && tool?.location === "browser") {
      pending.push(call);
      continue;
    }
    const content = errorContent(reason);
    if (!result.aborted) {
      results.push({ id: services.ids.message(), role: "tool", toolCallId: call.toolCallId, content });
      continue;
    }
    // A cancelled run still ends with a valid stream: every open call is closed and answered,
    // and marked so no browser acts on a call whose arguments were cut off.
    if (!call.ended) services.channel.emit({ type: EventType.TOOL_CALL_END, toolCallId: call.toolCallId, metadata: { tether: { doNotRun: "cancelled" } } });
    results.push(sendToolResult({ emit: services.channel.emit, newMessageId: services.ids.message }, call.toolCallId, content));
  }
  await commit(placeResults(kept, results), pending);
}

/** What a call a failed step left is answered: whoever failed, the model or the upstream agent the step ran. */
function failedBefore(error: TetherError | undefined): TetherError {
  return error?.code === "upstream_error" || error?.code === "upstream_unavailable"
    ? new TetherError("upstream_error", "The upstream agent failed before this call ran.")
    : new TetherError("model_error", "The model failed before this call ran.");
}

/** The answer to an approval the run never got to ask, because it was cancelled first. */
export function cancelledAnswer(toolCallId: string, services: StepServices): ToolMessage {
  const content = JSON.stringify({ status: "cancelled", message: "The run was cancelled before anyone was asked to approve this call; it did not run." });
  return sendToolResult({ emit: services.channel.emit, newMessageId: services.ids.message }, toolCallId, content);
}
