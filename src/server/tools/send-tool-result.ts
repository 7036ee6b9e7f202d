import { EventType, type BaseEvent, type ToolMessage } from "@ag-ui/core";

/** Where a run's tool results go: its stream, and the ids its messages get. */
export interface ResultSink {
  emit(event: BaseEvent): void;
  newMessageId(): string;
}

/** A call's result: streamed now as TOOL_CALL_RESULT on the call's id, and returned as the tool message the thread keeps. */
export function sendToolResult(sink: ResultSink, toolCallId: string, content: string): ToolMessage {
  const message: ToolMessage = { id: sink.newMessageId(), role: "tool", toolCallId, content };
  sink.emit({ type: EventType.TOOL_CALL_RESULT, messageId: message.id, toolCallId, role: "tool", content });
  return message;
}
