import { randomUUID } from "node:crypto";
import { checkStream } from "./check-stream.ts";
import { TrafficError, post, userTurn, type SoakTarget } from "./soak-target.ts";
import { readSseFrames } from "@tether-agent/tether/testing";

/**
 * kim's search, cancelled once its first events arrived: `POST
 * /api/runs/:runId/cancel` answers 202 and the stream ends RUN_FINISHED with
 * the outcome cancelled; or, when the run ended first, 409 and the stream
 * ended as usual. Resolves with which of the two it was.
 */
export async function cancel(target: SoakTarget): Promise<"cancelled" | "ended first"> {
  const threadId = `soak-cancel-${randomUUID()}`;
  const input = userTurn(threadId, `${threadId}-r1`, "find badge reader requests");
  const stream = readSseFrames(await post(target, "kim", "/api/agents/workdesk/run", input));
  await stream.until(2);
  const response = await fetch(`${target.url}/api/runs/${input.runId}/cancel`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${target.tokens.kim}` },
    body: "{}",
  });
  await response.body?.cancel();
  if (response.status !== 202 && response.status !== 409) throw new TrafficError(`cancel: HTTP ${response.status}`);
  const cancelled = response.status === 202;
  checkStream("cancel", await stream.all(), input.runId, 0, cancelled ? "cancelled" : undefined);
  return cancelled ? "cancelled" : "ended first";
}
