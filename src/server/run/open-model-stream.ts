import type { RetryPolicy } from "../agent/index.ts";
import { APICallError, type LanguageModelV3, type LanguageModelV3CallOptions, type LanguageModelV3StreamPart } from "@ai-sdk/provider";

/**
 * Opens the model's stream, trying again when the provider refused the call
 * with a retryable error (429, 5xx, a dropped connection before any answer)
 * and after the pause its `retry-after` asks for. Errors after the stream
 * opened are not retried: their events have already gone to the client.
 */
export async function openModelStream(
  model: LanguageModelV3,
  call: LanguageModelV3CallOptions,
  policy: RetryPolicy,
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void,
): Promise<ReadableStream<LanguageModelV3StreamPart>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await model.doStream(call)).stream;
    } catch (error) {
      const signal = call.abortSignal;
      if (attempt >= policy.maxRetries || signal?.aborted || !isRetryable(error)) throw error;
      const delayMs = Math.min(retryAfterMs(error) ?? policy.initialDelayMs * 2 ** attempt, policy.maxDelayMs);
      onRetry?.(error, attempt + 1, delayMs);
      await sleep(delayMs, signal);
    }
  }
}

function isRetryable(error: unknown): boolean {
  return APICallError.isInstance(error) && error.isRetryable;
}

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date. */
function retryAfterMs(error: unknown): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const headers = Object.fromEntries(Object.entries(error.responseHeaders ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const milliseconds = Number(headers["retry-after-ms"]);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const after = headers["retry-after"];
  if (!after) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
