import type { SseFrame } from "@tether-agent/tether/testing";
import { TrafficError } from "./soak-target.ts";

/** The seq of an SSE id `<runId>:<seq>`. */
export const seqOf = (frame: SseFrame) => Number(frame.id!.slice(frame.id!.lastIndexOf(":") + 1));

/**
 * Checks a stream of one run as a client holds it: ids naming `runId` with
 * seq running on from `afterSeq` without a gap or a repeat, and a last event
 * RUN_FINISHED (with the outcome `outcome`, when given).
 */
export function checkStream(what: string, frames: SseFrame[], runId: string, afterSeq = 0, outcome?: string) {
  frames.forEach((frame, index) => {
    if (frame.id !== `${runId}:${afterSeq + index + 1}`)
      throw new TrafficError(`${what}: event ${index} has id ${frame.id}, not ${runId}:${afterSeq + index + 1}`);
  });
  const last = frames.at(-1)?.data as { type?: string; outcome?: { type?: string }; code?: string } | undefined;
  if (last?.type !== "RUN_FINISHED") throw new TrafficError(`${what}: ends with ${last?.type ?? "nothing"}${last?.code ? ` (${last.code})` : ""}`);
  if (outcome && last.outcome?.type !== outcome) throw new TrafficError(`${what}: outcome ${last.outcome?.type}, not ${outcome}`);
}
