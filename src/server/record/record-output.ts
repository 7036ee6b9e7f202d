import { EventType } from "@ag-ui/core";
import type { RecordOutput } from "../../protocol/index.ts";
import { A2UI_ACTIVITY_TYPE } from "../genui/surfaces/index.ts";
import type { StoredEvent } from "../store/index.ts";
import { keep } from "./keep.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import { redactStreamedDeltas } from "./streamed-deltas.ts";

/** Where a page of a record's events starts, and how much it may hold. */
export interface EventPageRequest {
  afterSeq: number;
  /** Most events in the page. */
  limit: number;
  /** Characters of kept events (as JSON) after which the page ends; a page always holds at least one. */
  maxChars: number;
}

type SurfaceStatus = RecordOutput["surfaces"][number]["status"];

/**
 * Part 4 of a record, what the client was sent: how many events and the last
 * stored number, one page of the events (each redacted and capped), and the
 * final version of each surface. `events` are all the run's stored events.
 */
export function recordOutput(events: StoredEvent[], page: EventPageRequest): RecordOutput {
  const output: RecordOutput = { eventCount: events.length, lastSeq: events.at(-1)?.seq ?? 0, events: [], surfaces: [] };
  let chars = 0;
  const redactedDeltas = redactStreamedDeltas(events);
  for (const { seq, event } of events) {
    if (seq <= page.afterSeq) continue;
    const fields = event as unknown as { messageId?: unknown; toolCallId?: unknown };
    const entry = {
      seq,
      type: event.type,
      ...(typeof fields.messageId === "string" ? { messageId: fields.messageId } : {}),
      ...(typeof fields.toolCallId === "string" ? { toolCallId: fields.toolCallId } : {}),
      event: keep<unknown>(redactedDeltas.has(seq) ? { ...event, delta: redactedDeltas.get(seq) } : withoutMessages(event), RECORD_LIMITS.event),
    };
    const size = JSON.stringify(entry).length;
    if (output.events.length > 0 && (output.events.length >= page.limit || chars + size > page.maxChars)) {
      output.next = { afterSeq: output.events.at(-1)!.seq };
      break;
    }
    chars += size;
    output.events.push(entry);
  }
  output.surfaces = finalSurfaces(events);
  return output;
}

/**
 * A RUN_STARTED's or MESSAGES_SNAPSHOT's messages as their count and ids: the
 * history is the record's `input.messages`, what the run said its
 * `modelCalls`, and keeping them again here would make every read of the page
 * redact the whole request (in client mode the whole conversation).
 */
function withoutMessages(event: StoredEvent["event"]): unknown {
  if (event.type === EventType.RUN_STARTED) {
    const input = (event as unknown as { input?: { messages?: unknown } }).input;
    return input && Array.isArray(input.messages) ? { ...event, input: messagesAsIds(input) } : event;
  }
  if (event.type === EventType.MESSAGES_SNAPSHOT) return messagesAsIds(event as unknown as { messages?: unknown });
  return event;
}

function messagesAsIds<T extends { messages?: unknown }>(holder: T): Omit<T, "messages"> | T {
  if (!Array.isArray(holder.messages)) return holder;
  const { messages, ...rest } = holder;
  return { ...rest, messageCount: messages.length, messageIds: messages.map((message: { id?: unknown }) => message?.id) };
}

/** The last ACTIVITY_SNAPSHOT of each surface position, in the order they first appeared. */
function finalSurfaces(events: StoredEvent[]): RecordOutput["surfaces"] {
  const last = new Map<string, Record<string, unknown>>();
  for (const { event } of events) {
    if (event.type !== EventType.ACTIVITY_SNAPSHOT) continue;
    const activity = event as unknown as { messageId: string; activityType?: string; content?: Record<string, unknown> };
    if (activity.activityType === A2UI_ACTIVITY_TYPE) last.set(activity.messageId, activity.content ?? {});
  }
  return [...last].map(([messageId, content]) => {
    const surfaceId = surfaceIdOf(content);
    return { messageId, ...(surfaceId ? { surfaceId } : {}), status: statusOf(content), content: keep<unknown>(content, RECORD_LIMITS.value) };
  });
}

function statusOf(content: Record<string, unknown>): SurfaceStatus {
  if (Array.isArray(content.a2ui_operations)) return "rendered";
  return content.status === "building" || content.status === "retrying" ? content.status : "failed";
}

/** The surface id its operations name (`createSurface.surfaceId`). */
function surfaceIdOf(content: Record<string, unknown>): string | undefined {
  const operations = Array.isArray(content.a2ui_operations) ? (content.a2ui_operations as Array<Record<string, { surfaceId?: unknown } | undefined>>) : [];
  for (const operation of operations) {
    const surfaceId = operation.createSurface?.surfaceId;
    if (typeof surfaceId === "string") return surfaceId;
  }
  return undefined;
}
