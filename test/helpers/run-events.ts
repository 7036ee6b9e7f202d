import { EventType, type BaseEvent } from "@ag-ui/client";

/**
 * What a run's AG-UI events say, read the way a test asks it: the words
 * spoken, how it finished, a call's id, arguments and result.
 */

type Loose = { type?: string; delta?: string; toolCallId?: string; toolCallName?: string; content?: string; outcome?: unknown };
const loose = (events: readonly unknown[]) => events as Loose[];

/** The text it spoke: every TEXT_MESSAGE_CONTENT delta, joined. */
export const spoken = (events: readonly unknown[]) =>
  loose(events)
    .filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => event.delta)
    .join("");

/** The outcome of its last RUN_FINISHED. */
export const finished = (events: BaseEvent[]) => loose(events).findLast((event) => event.type === EventType.RUN_FINISHED)?.outcome;

/** The id of its first call to `name`. */
export const callNamed = (events: BaseEvent[], name: string) =>
  loose(events).find((event) => event.type === EventType.TOOL_CALL_START && event.toolCallName === name)!.toolCallId!;

/** A call's arguments, its TOOL_CALL_ARGS deltas joined. */
export const argumentsOf = (events: BaseEvent[], toolCallId: string) =>
  loose(events)
    .filter((event) => event.type === EventType.TOOL_CALL_ARGS && event.toolCallId === toolCallId)
    .map((event) => event.delta)
    .join("");

/** A call's TOOL_CALL_RESULT content, if one came. */
export const resultOf = (events: BaseEvent[], toolCallId: string) =>
  loose(events).find((event) => event.type === EventType.TOOL_CALL_RESULT && event.toolCallId === toolCallId)?.content;

/** Its TOOL_CALL_END for a call. */
export const callEnd = (events: BaseEvent[], toolCallId: string) =>
  loose(events).find((event) => event.type === EventType.TOOL_CALL_END && event.toolCallId === toolCallId);
