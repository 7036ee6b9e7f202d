import type { LlmResponse } from "@google/adk";

export interface PlayResponsesOptions {
  /** Pause before each response, so a UI streams as with a real model. 0: none. */
  delayMs: number;
  /** ADK's `abortSignal`: once aborted, nothing more is yielded. */
  signal?: AbortSignal | undefined;
}

/**
 * Yields prepared responses one by one, as a model's stream would arrive.
 * A cancelled run stops the stream and the generator returns: ADK checks the
 * signal after each response and ends the invocation itself, without an error.
 */
export async function* playResponses(responses: LlmResponse[], options: PlayResponsesOptions): AsyncGenerator<LlmResponse, void> {
  for (const response of responses) {
    if (options.delayMs > 0) await pause(options.delayMs, options.signal);
    if (options.signal?.aborted) return;
    yield response;
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
