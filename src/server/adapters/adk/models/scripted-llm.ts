import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from "@google/adk";
import type { ScriptedTurn } from "../../../models/playbook/index.ts";
import { declaredFunctions, systemText, type AdkContent, type AdkUsage } from "./adk-request.ts";
import { playResponses } from "./play-responses.ts";
import { turnResponses } from "./turn-responses.ts";

/** A scripted turn, with the token counts its final response reports. */
export type ScriptedLlmTurn = ScriptedTurn & { usage?: AdkUsage };

/** One scripted model call: a turn, the raw responses to yield as they are, or a function of the request. */
export type ScriptedLlmStep = ScriptedLlmTurn | LlmResponse[] | ((request: LlmRequest) => ScriptedLlmTurn | LlmResponse[]);

/** What the scripted model was asked, one entry per call, recorded when the call came. */
export interface RecordedLlmRequest {
  /** The conversation as ADK sent it, deep-copied (ADK mutates and reuses its own). */
  contents: AdkContent[];
  /** The names in `config.tools[].functionDeclarations`: what the model was offered. */
  tools: string[];
  /** The keys of `toolsDict`: what ADK can run. */
  toolsDict: string[];
  /** The system instruction as text. */
  system: string;
  /** Whether ADK asked for a stream (`StreamingMode.SSE`). */
  stream: boolean;
  /** The request itself, not a copy: for what the fields above leave out. */
  request: LlmRequest;
}

export interface ScriptedLlmOptions {
  /** Pause before each response. Default 0. */
  chunkDelayMs?: number;
  /** The model name ADK sees (and its spans record). Default "scripted". */
  model?: string;
}

/** An ADK model that plays a script, for tests. */
export interface ScriptedLlm extends BaseLlm {
  /** Every call ADK made, in order. */
  readonly requests: RecordedLlmRequest[];
}

/**
 * The test fake for ADK's model slot, as `createScriptedModel` is for the AI
 * SDK's: answers each `generateContentAsync` with the next step and records
 * the request. Streaming, a turn's text comes as partial responses and its
 * calls only in the final one. Running out of steps fails loudly, so a test
 * never passes on a call it did not expect.
 *
 * @example
 * const model = createScriptedLlm([
 *   { toolCalls: [{ toolName: "getWeather", input: { city: "Lyon" } }] },
 *   { text: "Sunny in Lyon.", usage: { promptTokenCount: 40, candidatesTokenCount: 4 } },
 * ]);
 * const agent = new LlmAgent({ name: "weather", model, tools: [getWeather] });
 */
export function createScriptedLlm(steps: ScriptedLlmStep[], options: ScriptedLlmOptions = {}): ScriptedLlm {
  return new ScriptedAdkLlm(steps, options);
}

// TypeScript's `private`, not `#`: a wrapper may put a Proxy around the model, and `#` fields fail through one.
class ScriptedAdkLlm extends BaseLlm implements ScriptedLlm {
  readonly requests: RecordedLlmRequest[] = [];
  private readonly steps: ScriptedLlmStep[];
  private readonly delayMs: number;

  constructor(steps: ScriptedLlmStep[], options: ScriptedLlmOptions) {
    super({ model: options.model ?? "scripted" });
    this.steps = steps;
    this.delayMs = options.chunkDelayMs ?? 0;
  }

  async *generateContentAsync(request: LlmRequest, stream = false, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    this.requests.push({
      contents: structuredClone(request.contents),
      tools: declaredFunctions(request).map((declaration) => declaration.name),
      toolsDict: Object.keys(request.toolsDict ?? {}),
      system: systemText(request),
      stream,
      request,
    });
    const number = this.requests.length;
    const step = this.steps[number - 1];
    // The test's author scripted too few steps: a programmer error, which ADK reports as the model's failure.
    if (step === undefined) throw new Error(`The scripted model has ${this.steps.length} steps; step ${number} was not scripted.`);
    const resolved = typeof step === "function" ? step(request) : step;
    const responses = Array.isArray(resolved) ? resolved : turnResponses(resolved, { stream, ...(resolved.usage ? { usage: resolved.usage } : {}) });
    yield* playResponses(responses, { delayMs: this.delayMs, signal: abortSignal });
  }

  async connect(): Promise<BaseLlmConnection> {
    throw new Error("The scripted model does not support live (bidi) connections: connect() is not supported.");
  }
}
