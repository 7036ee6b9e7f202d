import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { turnParts, type ScriptedTurn } from "../server/models/playbook/index.ts";

/** One scripted model call: a turn, raw stream parts, or a function of the call. */
export type ScriptedStep =
  | ScriptedTurn
  | { parts: LanguageModelV3StreamPart[]; /** Throw this after the parts, as a broken connection would. */ throwAfter?: unknown }
  | ((call: LanguageModelV3CallOptions) => ScriptedTurn | { parts: LanguageModelV3StreamPart[]; throwAfter?: unknown });

export interface ScriptedModel extends LanguageModelV3 {
  /** Every call the runtime made, in order. */
  calls: LanguageModelV3CallOptions[];
}

/**
 * The shared fake for the model port: answers each `doStream` with the next
 * scripted step and records the call. Running out of steps fails loudly, so a
 * test never passes on a call it did not expect.
 */
export function createScriptedModel(steps: ScriptedStep[], options: { chunkDelayMs?: number; modelId?: string } = {}): ScriptedModel {
  const calls: LanguageModelV3CallOptions[] = [];
  let counter = 0;
  return {
    specificationVersion: "v3",
    provider: "tether.scripted",
    modelId: options.modelId ?? "scripted",
    supportedUrls: {},
    calls,
    async doStream(call) {
      calls.push(call);
      const step = steps[calls.length - 1];
      // The test's author scripted too few steps: a programmer error, which the run reports as the model's failure.
      if (step === undefined) throw new Error(`The scripted model has ${steps.length} steps; call ${calls.length} was not scripted.`);
      const resolved = typeof step === "function" ? step(call) : step;
      const parts = "parts" in resolved ? resolved.parts : turnParts(resolved, { newToolCallId: () => `call_s${++counter}` });
      const throwAfter = "parts" in resolved ? resolved.throwAfter : undefined;
      const delay = options.chunkDelayMs ?? 0;
      const source = simulateReadableStream({ chunks: parts, chunkDelayInMs: delay || null });
      if (throwAfter === undefined) return { stream: source };
      const reader = source.getReader();
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) controller.error(throwAfter);
            else controller.enqueue(value);
          },
        }),
      };
    },
    async doGenerate() {
      // A programmer error: Tether's run loop never calls doGenerate.
      throw new Error("not implemented: Tether always streams.");
    },
  };
}
