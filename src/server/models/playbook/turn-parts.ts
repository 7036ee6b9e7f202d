import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";

/** What a scripted model says in one step: some text, some tool calls, or both. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: Array<{ toolName: string; input: unknown; toolCallId?: string }>;
}

export interface TurnPartsOptions {
  /** Characters per text delta. Default 12. */
  textChunk?: number;
  /** Characters per tool-argument delta; splits land mid-string like a real provider's. Default 9. */
  argumentChunk?: number;
  newToolCallId?: () => string;
}

/**
 * The stream parts a provider would send for a turn: text deltas, then each
 * tool call as input start/deltas/end and the final call, then `finish` with
 * usage estimated from the characters (a scripted model counts no tokens).
 */
export function turnParts(turn: ScriptedTurn, options: TurnPartsOptions = {}): LanguageModelV3StreamPart[] {
  const textChunk = options.textChunk ?? 12;
  const argumentChunk = options.argumentChunk ?? 9;
  let counter = 0;
  const newId = options.newToolCallId ?? (() => `call_scripted_${++counter}`);
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  let outputChars = 0;
  if (turn.text) {
    parts.push({ type: "text-start", id: "text-0" });
    for (const delta of chunk(turn.text, textChunk)) parts.push({ type: "text-delta", id: "text-0", delta });
    parts.push({ type: "text-end", id: "text-0" });
    outputChars += turn.text.length;
  }
  for (const call of turn.toolCalls ?? []) {
    const id = call.toolCallId ?? newId();
    const input = typeof call.input === "string" ? call.input : JSON.stringify(call.input);
    parts.push({ type: "tool-input-start", id, toolName: call.toolName });
    for (const delta of chunk(input, argumentChunk)) parts.push({ type: "tool-input-delta", id, delta });
    parts.push({ type: "tool-input-end", id });
    parts.push({ type: "tool-call", toolCallId: id, toolName: call.toolName, input });
    outputChars += input.length;
  }
  const outputTokens = Math.ceil(outputChars / 4);
  parts.push({
    type: "finish",
    finishReason: { unified: turn.toolCalls?.length ? "tool-calls" : "stop", raw: undefined },
    usage: {
      inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
      raw: { estimated: true },
    },
  });
  return parts;
}

function chunk(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let index = 0; index < text.length; index += size) pieces.push(text.slice(index, index + size));
  return pieces;
}
