/** One SSE frame: its id (`<runId>:<seq>` from Tether) and its parsed data. */
export interface SseFrame {
  id?: string;
  data: any;
}

/** Splits an SSE body into frames; for tests that look at frame ids, which AG-UI clients do not expose. */
export function parseSseFrames(body: string): SseFrame[] {
  return body
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map(parseSseFrame);
}

/** One frame's lines (without the blank line that ends it): its id, and its data lines joined and parsed as JSON. */
export function parseSseFrame(block: string): SseFrame {
  const frame: SseFrame = { data: undefined };
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("id: ")) frame.id = line.slice(4);
    else if (line.startsWith("data: ")) data.push(line.slice(6));
  }
  frame.data = data.length > 0 ? JSON.parse(data.join("\n")) : undefined;
  return frame;
}
