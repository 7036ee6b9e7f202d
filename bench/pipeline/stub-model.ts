import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";

/** The text of every delta: a small token, as a provider streams them. */
export const STUB_DELTA = "tok ";

/**
 * A model that answers every call with `deltas` small text deltas and nothing
 * else, as fast as it is read: no delays, and parts made one at a time as the
 * consumer pulls (nothing is precomputed, so the stub costs every contender
 * the same few allocations per part).
 *
 * Stream: stream-start, text-start, `deltas` × text-delta, text-end, finish.
 *
 * By default every part is ready at once, so a consumer reads the whole
 * stream in microtasks, without the event loop ever turning: the worst case
 * for anything that batches "once per turn of the event loop". `yieldEvery`
 * makes every Nth read wait for a macrotask (setImmediate), the way parts
 * from a real provider arrive in bursts, one socket read at a time.
 */
export function createStubModel(deltas: number, options: { yieldEvery?: number } = {}): LanguageModelV3 {
  const yieldEvery = options.yieldEvery ?? 0;
  return {
    specificationVersion: "v3",
    provider: "bench.stub",
    modelId: `stub-${deltas}`,
    supportedUrls: {},
    async doStream() {
      let next = 0; // index into the virtual part list: 0 start, 1 text-start, 2..deltas+1 deltas, then end, finish
      const total = deltas + 4;
      const enqueueNext = (controller: ReadableStreamDefaultController<LanguageModelV3StreamPart>) => {
        const index = next++;
        controller.enqueue(part(index, deltas));
        if (index === total - 1) controller.close();
      };
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        pull(controller) {
          if (yieldEvery > 0 && next > 0 && next % yieldEvery === 0) {
            return new Promise<void>((resolve) => setImmediate(() => resolve(enqueueNext(controller))));
          }
          enqueueNext(controller);
        },
      });
      return { stream };
    },
    async doGenerate() {
      throw new Error("The bench stub only streams.");
    },
  };
}

function part(index: number, deltas: number): LanguageModelV3StreamPart {
  if (index === 0) return { type: "stream-start", warnings: [] };
  if (index === 1) return { type: "text-start", id: "text-0" };
  if (index <= deltas + 1) return { type: "text-delta", id: "text-0", delta: STUB_DELTA };
  if (index === deltas + 2) return { type: "text-end", id: "text-0" };
  return {
    type: "finish",
    finishReason: { unified: "stop", raw: undefined },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: deltas, text: deltas, reasoning: undefined },
    },
  };
}
