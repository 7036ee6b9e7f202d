import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";

/** A reply of 113 text deltas; the model pauses after HOLD_AT stream parts while a test holds it. */
export const HOLD_REPLY = Array.from({ length: 150 }, (_, index) => `word${String(index).padStart(3, "0")}, `).join("");

export const HOLD_AT = 60;

/**
 * The scripted model, but its stream stops after HOLD_AT parts until the test
 * lets it go on: the run is surely live when the other instance is asked.
 */
export function heldModel(model: LanguageModelV3) {
  let gate: Promise<void> = Promise.resolve();
  const held: LanguageModelV3 = {
    ...model,
    async doStream(call) {
      const result = await model.doStream(call);
      const wait = gate;
      let count = 0;
      return {
        ...result,
        stream: result.stream.pipeThrough(
          new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
            async transform(part, controller) {
              // A cancelled run lets go at once, as a real model's stream ends when its request is aborted.
              if (++count === HOLD_AT) await Promise.race([wait, aborted(call.abortSignal)]);
              controller.enqueue(part);
            },
          }),
        ),
      };
    },
  };
  return {
    model: held,
    /** Holds the next run's stream; returns what lets it go on. */
    hold(): () => void {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return release;
    },
  };
}

function aborted(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise(() => undefined);
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}
