/** One run request: where to POST and what. */
export interface RunRequest {
  url: string;
  body: string;
  headers?: Record<string, string>;
}

/** What the client saw of one SSE response. */
export interface RunResult {
  /** SSE frames received (each ends with a blank line). */
  events: number;
  bytes: number;
  /** From just before `fetch` to the end of the body. */
  ms: number;
  /** From just before `fetch` to the response headers. */
  headersMs: number;
  /** The whole body, only when asked for (the capture run, not the timed ones). */
  text?: string;
}

/**
 * POSTs a RunAgentInput over loopback and reads the SSE body to its end,
 * counting frames by their terminating blank line without decoding them, so
 * the client costs every contender the same and as little as possible.
 */
export async function runOnce(request: RunRequest, keepText = false): Promise<RunResult> {
  const start = performance.now();
  const response = await fetch(request.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...request.headers },
    body: request.body,
  });
  const headersMs = performance.now() - start;
  if (!response.ok || !response.body) {
    throw new Error(`${request.url} answered ${response.status}: ${await response.text()}`);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let events = 0;
  let bytes = 0;
  let lastWasNewline = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (keepText) chunks.push(value);
    let at = value.indexOf(10);
    while (at !== -1) {
      const previousIsNewline = at === 0 ? lastWasNewline : value[at - 1] === 10;
      if (previousIsNewline) events++;
      at = value.indexOf(10, at + 1);
    }
    lastWasNewline = value[value.length - 1] === 10;
  }
  const ms = performance.now() - start;
  const result: RunResult = { events, bytes, ms, headersMs };
  if (keepText) result.text = Buffer.concat(chunks).toString("utf8");
  return result;
}
