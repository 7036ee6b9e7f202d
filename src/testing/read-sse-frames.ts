import { parseSseFrames, type SseFrame } from "./sse-frames.ts";

/**
 * A response's SSE frames as they arrive, for reading part of a stream and
 * the rest later: `until(count)` reads until that many came (or the stream
 * ended), `all()` to the end, `cancel()` drops the connection; `seen` holds
 * every frame read so far.
 */
export function readSseFrames(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const seen: SseFrame[] = [];
  let buffer = "";
  let done = false;
  const pull = async () => {
    const chunk = await reader.read();
    if (chunk.done) {
      done = true;
      return;
    }
    buffer += decoder.decode(chunk.value, { stream: true });
    const end = buffer.lastIndexOf("\n\n");
    if (end === -1) return;
    seen.push(...parseSseFrames(buffer.slice(0, end + 2)));
    buffer = buffer.slice(end + 2);
  };
  return {
    seen,
    async until(count: number) {
      while (!done && seen.length < count) await pull();
      return seen;
    },
    /** Drops the connection, as a closed tab or a network cut does. */
    async cancel() {
      await reader.cancel();
    },
    async all() {
      while (!done) await pull();
      return seen;
    },
  };
}
