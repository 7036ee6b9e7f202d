import { randomUUID } from "node:crypto";
import { checkStream, seqOf } from "./check-stream.ts";
import { TrafficError, post, userTurn, type SoakTarget } from "./soak-target.ts";
import { readSseFrames } from "@tether-agent/tether/testing";

/**
 * kim's search (text streamed after a server tool): the client drops the
 * connection after a few events, as a closed laptop does, then comes back on
 * `GET /api/threads/:threadId/events` with `Last-Event-ID`. It must get the
 * rest of the run, each event once, in order, to RUN_FINISHED; a client that
 * already held the end gets the end again.
 */
export async function reconnect(target: SoakTarget) {
  const threadId = `soak-reconnect-${randomUUID()}`;
  const input = userTurn(threadId, `${threadId}-r1`, "find badge reader requests");
  const first = readSseFrames(await post(target, "kim", "/api/agents/workdesk/run", input));
  const held = [...(await first.until(4))];
  await first.cancel();
  const last = held.at(-1)!;
  const response = await fetch(`${target.url}/api/threads/${threadId}/events`, {
    headers: { Accept: "text/event-stream", Authorization: `Bearer ${target.tokens.kim}`, "Last-Event-ID": last.id! },
  });
  if (response.status !== 200) throw new TrafficError(`reconnect: HTTP ${response.status} ${(await response.text()).slice(0, 160)}`);
  const rest = await readSseFrames(response).all();
  const heldEnd = (last.data as { type: string }).type === "RUN_FINISHED";
  checkStream("reconnect", rest, input.runId, heldEnd ? seqOf(last) - 1 : seqOf(last));
}
