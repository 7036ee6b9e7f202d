/** One tool call as the model made it: which tool, and its arguments exactly as streamed. */
export interface ToolCall {
  toolCallId: string;
  toolName: string;
  /** The arguments exactly as streamed (and as the client accumulated them). */
  argumentsText: string;
}
