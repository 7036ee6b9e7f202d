import { EventType, type BaseEvent, type Message } from "@ag-ui/core";
import { UNSTORED_EVENT_LIMIT, type AgentState, type LostRunEnding, type StoredEvent } from "../port.ts";

/**
 * The last events of a run whose process is gone. They go after a gap of
 * UNSTORED_EVENT_LIMIT past the last stored event: a client may hold ids up to
 * there that never reached the store, and an id must never name two events.
 * The snapshot carries what the thread kept (a tool's committed result, say),
 * which the lost events may have been the only news of; a thread with shared
 * state gets a state snapshot first, which puts back a client that applied
 * deltas the store never got. The RUN_ERROR says which ids were lost, so a
 * client holding one of them knows.
 */
export function lostRunEvents(
  run: { runId: string; threadId: string; lastStoredSeq: number; messages: Message[]; state?: AgentState },
  ending: LostRunEnding,
): StoredEvent[] {
  const first = run.lastStoredSeq + UNSTORED_EVENT_LIMIT + 1;
  const lost = { afterSeq: run.lastStoredSeq, throughSeq: first - 1 };
  const snapshot: BaseEvent = { type: EventType.MESSAGES_SNAPSHOT, messages: run.messages } as BaseEvent;
  const error = {
    type: EventType.RUN_ERROR,
    code: ending.code,
    message: `${ending.message} Events after ${run.runId}:${lost.afterSeq} were not saved; any you received up to ${run.runId}:${lost.throughSeq} are lost. The messages snapshot before this event is what the thread kept.`,
    metadata: { tether: { runId: run.runId, threadId: run.threadId, lostEvents: lost } },
  } as BaseEvent;
  const state: BaseEvent[] = run.state ? [{ type: EventType.STATE_SNAPSHOT, snapshot: run.state } as BaseEvent] : [];
  return [...state, snapshot, error].map((event, index) => ({ seq: first + index, event }));
}
