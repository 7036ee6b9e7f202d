import { describe, expect, it } from "vitest";
import { readSse, type SseMessage } from "./sse-reader.ts";

/** A byte stream that yields `chunks` one read at a time. */
function byteStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]!);
      else controller.close();
    },
  });
}

const bytes = (text: string) => new TextEncoder().encode(text);

async function read(stream: ReadableStream<Uint8Array>, signal?: AbortSignal): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for await (const message of readSse(stream, signal)) messages.push(message);
  return messages;
}

const readText = (...chunks: string[]) => read(byteStream(chunks.map(bytes)));

/** Three frames: ids with and without the space, multi-line data, and characters of two, three and four UTF-8 bytes. */
const BODY =
  'id: run:1\ndata: {"type":"RUN_STARTED","runId":"run"}\n\n' +
  'id:run:2\ndata:{"delta":"Grüße — 👋"}\n\n' +
  "id: run:3\ndata: first line\ndata: second line\n\n";
const MESSAGES: SseMessage[] = [
  { id: "run:1", data: '{"type":"RUN_STARTED","runId":"run"}' },
  { id: "run:2", data: '{"delta":"Grüße — 👋"}' },
  { id: "run:3", data: "first line\nsecond line" },
];

describe("readSse", () => {
  it("reads each frame's id and data", async () => {
    expect(await readText(BODY)).toEqual(MESSAGES);
  });

  it("reads the same frames when the bytes are split in two at every position", async () => {
    const all = bytes(BODY);
    for (let at = 0; at <= all.length; at++) {
      const messages = await read(byteStream([all.slice(0, at), all.slice(at)]));
      expect(messages, `split at byte ${at}`).toEqual(MESSAGES);
    }
  });

  it("reads the same frames when every byte arrives on its own", async () => {
    const all = bytes(BODY);
    expect(await read(byteStream([...all].map((byte) => Uint8Array.of(byte))))).toEqual(MESSAGES);
  });

  it("reads the same frames when the bytes are split in three at every pair of positions", async () => {
    const all = bytes(BODY.slice(0, 80));
    const expected = await read(byteStream([all]));
    for (let first = 0; first <= all.length; first++) {
      for (let second = first; second <= all.length; second++) {
        expect(await read(byteStream([all.slice(0, first), all.slice(first, second), all.slice(second)])), `split at ${first} and ${second}`).toEqual(expected);
      }
    }
  });

  it("accepts id: and data: with and without the space after the colon", async () => {
    expect(await readText("id: a\ndata: x\n\nid:b\ndata:y\n\nid: c\ndata:z\n\nid:d\ndata: w\n\n")).toEqual([
      { id: "a", data: "x" },
      { id: "b", data: "y" },
      { id: "c", data: "z" },
      { id: "d", data: "w" },
    ]);
  });

  it("keeps a second space as part of the value", async () => {
    expect(await readText("id:  a\ndata:  x\n\n")).toEqual([{ id: " a", data: " x" }]);
  });

  it("joins multi-line data with newlines", async () => {
    expect(await readText("data: one\ndata:\ndata: three\n\n")).toEqual([{ data: "one\n\nthree" }]);
  });

  it("leaves out the id of a frame that has none", async () => {
    const [message] = await readText('data: {"a":1}\n\n');
    expect(message).toEqual({ data: '{"a":1}' });
    expect(message).not.toHaveProperty("id");
  });

  it("reads a trailing frame without the final blank line", async () => {
    expect(await readText("id: run:1\ndata: one\n\nid: run:2\ndata: two")).toEqual([
      { id: "run:1", data: "one" },
      { id: "run:2", data: "two" },
    ]);
    expect(await readText("id: run:1\ndata: one\n\nid: run:2\ndata: two\n")).toEqual([
      { id: "run:1", data: "one" },
      { id: "run:2", data: "two" },
    ]);
  });

  it("reads a trailing frame whose last multi-byte character is split across chunks", async () => {
    const all = bytes("data: 👋");
    expect(await read(byteStream([all.slice(0, -2), all.slice(-2)]))).toEqual([{ data: "👋" }]);
  });

  it("skips comments, frames without data, and fields it does not use", async () => {
    expect(await readText(": keep-alive\n\nid: run:1\n\nevent: message\nretry: 1000\ndata: x\n\n")).toEqual([{ data: "x" }]);
  });

  it("reads nothing from an empty stream", async () => {
    expect(await readText()).toEqual([]);
    expect(await readText("\n\n\n\n")).toEqual([]);
  });

  it("stops reading once the signal is aborted", async () => {
    const controller = new AbortController();
    const messages: SseMessage[] = [];
    for await (const message of readSse(byteStream([bytes("data: one\n\n"), bytes("data: two\n\n")]), controller.signal)) {
      messages.push(message);
      controller.abort();
    }
    expect(messages).toEqual([{ data: "one" }]);
  });

  it("releases the stream's reader when the consumer stops early", async () => {
    const stream = byteStream([bytes("data: one\n\ndata: two\n\n")]);
    for await (const message of readSse(stream)) {
      expect(message).toEqual({ data: "one" });
      break;
    }
    expect(stream.locked).toBe(false);
  });

  it("throws when the stream errors, after yielding the complete frames", async () => {
    let reads = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (reads++ === 0) controller.enqueue(bytes("data: one\n\ndata: half"));
        else controller.error(new TypeError("network error"));
      },
    });
    const messages: SseMessage[] = [];
    await expect(
      (async () => {
        for await (const message of readSse(stream)) messages.push(message);
      })(),
    ).rejects.toThrow("network error");
    expect(messages).toEqual([{ data: "one" }]);
  });
});

describe("readSse with CRLF line ends", () => {
  it("reads frames whose CRLF is split across chunks without inventing a frame", async () => {
    const body = 'id: r:1\r\ndata: {"a":1}\r\n\r\nid: r:2\r\ndata: {"a":2}\r\n\r\n';
    for (let split = 1; split < body.length; split++) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          const bytes = new TextEncoder().encode(body);
          controller.enqueue(bytes.slice(0, split));
          controller.enqueue(bytes.slice(split));
          controller.close();
        },
      });
      const messages = [];
      for await (const message of readSse(stream)) messages.push(message);
      expect(messages).toEqual([
        { id: "r:1", data: '{"a":1}' },
        { id: "r:2", data: '{"a":2}' },
      ]);
    }
  });
});
