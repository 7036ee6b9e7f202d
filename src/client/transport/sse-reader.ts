/** One server-sent event: its id (Tether's `<runId>:<seq>`) and its data. */
export interface SseMessage {
  id?: string;
  data: string;
}

/**
 * Reads server-sent events from a byte stream, keeping each event's id (the
 * reference client's parser drops ids, and a reconnect needs the last one).
 * Yields the complete events of each read together: one step per read, not
 * per event, which is where a token stream's time would otherwise go.
 */
export async function* readSseBatches(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseMessage[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let carriedCr = "";
  try {
    for (;;) {
      if (signal?.aborted) return;
      const { done, value } = await reader.read();
      if (done) break;
      // SSE allows CRLF and CR line ends as well as LF; a CR at a chunk's end waits to see if an LF follows.
      let text = carriedCr + decoder.decode(value, { stream: true });
      carriedCr = text.endsWith("\r") ? "\r" : "";
      if (carriedCr) text = text.slice(0, -1);
      buffer += text.replace(/\r\n?/g, "\n");
      const batch: SseMessage[] = [];
      let start = 0;
      for (let boundary = buffer.indexOf("\n\n"); boundary !== -1; boundary = buffer.indexOf("\n\n", start)) {
        const message = parseBlock(buffer.slice(start, boundary));
        if (message) batch.push(message);
        start = boundary + 2;
      }
      buffer = buffer.slice(start);
      if (batch.length > 0) yield batch;
    }
    const rest = parseBlock(buffer + (carriedCr ? "\n" : "") + decoder.decode());
    if (rest) yield [rest];
  } finally {
    reader.releaseLock();
  }
}

/** The same events one at a time. */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseMessage> {
  for await (const batch of readSseBatches(body, signal)) yield* batch;
}

function parseBlock(block: string): SseMessage | undefined {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
    else if (line.startsWith("id:")) id = line.slice(line.startsWith("id: ") ? 4 : 3);
  }
  if (data.length === 0) return undefined;
  return id === undefined ? { data: data.join("\n") } : { id, data: data.join("\n") };
}
