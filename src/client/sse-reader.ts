/** One server-sent event: its id (Tether's `<runId>:<seq>`) and its data. */
export interface SseMessage {
  id?: string;
  data: string;
}

/**
 * Reads server-sent events from a byte stream, keeping each event's id (the
 * reference client's parser drops ids, and a reconnect needs the last one).
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseMessage> {
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
      let boundary = buffer.indexOf("\n\n");
      while (boundary !== -1) {
        const message = parseBlock(buffer.slice(0, boundary));
        buffer = buffer.slice(boundary + 2);
        if (message) yield message;
        boundary = buffer.indexOf("\n\n");
      }
    }
    const rest = parseBlock(buffer + (carriedCr ? "\n" : "") + decoder.decode());
    if (rest) yield rest;
  } finally {
    reader.releaseLock();
  }
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
