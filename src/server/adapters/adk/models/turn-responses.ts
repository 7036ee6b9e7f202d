import type { LlmResponse } from "@google/adk";
import type { ScriptedTurn } from "../../../models/playbook/index.ts";
import type { AdkPart, AdkUsage } from "./adk-request.ts";

export interface TurnResponsesOptions {
  /** Whether ADK asked for a stream (`StreamingMode.SSE`): the text comes first as partial responses. */
  stream: boolean;
  usage?: AdkUsage;
}

/** At most this many characters per partial response, as Tether's scripted turns stream text. */
const MAX_CHUNK = 12;

/**
 * The responses a model would send for a scripted turn. Streaming, the text
 * comes as a few `partial` responses; then one final response holds the
 * whole text and every function call. Calls are never in a partial: ADK runs
 * the calls of every response it gets, partial or not, so a call shown twice
 * would run twice (see ../normalized-llm.ts, which keeps calls out of partials).
 */
export function turnResponses(turn: ScriptedTurn, options: TurnResponsesOptions): LlmResponse[] {
  const text = turn.text ?? "";
  const partials: LlmResponse[] = options.stream
    ? textChunks(text).map((chunk) => ({ content: { role: "model", parts: [{ text: chunk }] }, partial: true }))
    : [];
  const parts: AdkPart[] = [...(text ? [{ text }] : []), ...(turn.toolCalls ?? []).map(functionCallPart)];
  const final: LlmResponse = { content: { role: "model", parts }, partial: false };
  if (options.usage) final.usageMetadata = options.usage;
  return [...partials, final];
}

/** A scripted call as a function call part: its id only when the script gives one (ADK mints `adk-…` otherwise). */
function functionCallPart(call: NonNullable<ScriptedTurn["toolCalls"]>[number]): AdkPart {
  const args = call.input === undefined ? {} : typeof call.input === "string" ? (JSON.parse(call.input) as unknown) : call.input;
  if (typeof args !== "object" || args === null || Array.isArray(args))
    throw new Error(`A scripted call to ${call.toolName} must have an object as its input (Gemini's function call arguments are an object).`);
  return { functionCall: { name: call.toolName, args: args as Record<string, unknown>, ...(call.toolCallId ? { id: call.toolCallId } : {}) } };
}

/** At least a few pieces for a short text, and no piece longer than MAX_CHUNK. */
function textChunks(text: string): string[] {
  const size = Math.max(1, Math.min(MAX_CHUNK, Math.ceil(text.length / 3)));
  const chunks: string[] = [];
  for (let index = 0; index < text.length; index += size) chunks.push(text.slice(index, index + size));
  return chunks;
}
