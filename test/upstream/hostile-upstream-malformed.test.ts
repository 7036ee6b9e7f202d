import { EventType } from "@ag-ui/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spoken } from "../helpers/run-events.ts";
import { ask, finishedEvent, lastEvent, sse, started, startHostile, textEvents, upstreamRun, verified, type Hostile } from "./hostile-harness.ts";

/**
 * A hostile upstream that sends what is not AG-UI: bytes that are not JSON,
 * JSON that is not an event, events of no known type, events whose fields are
 * missing or of the wrong type, garbage under the protobuf media type. Each
 * run ends with one RUN_ERROR `upstream_error` in Tether's words, or, for what
 * Tether can skip, finishes; every stream a client gets passes the reference
 * client's verifier.
 */

const KEY = "sk-live-abcdefghijklmnopqrstuvwx";
const PROTOBUF = "application/vnd.ag-ui.event+proto";
let hostile: Hostile;

beforeAll(async () => {
  hostile = await startHostile({
    "not json": sse(started(), ...textEvents("m", "Before. "), `data: {"type": "TEXT_MESSAGE_CONTENT", ${KEY}\n\n`, finishedEvent()),
    "not json first": sse(`data: hello ${KEY}\n\n`, finishedEvent()),
    "not an object": sse(started(), "data: [1, 2, 3]\n\n", finishedEvent()),
    "no type": sse(started(), 'data: {"delta": "hi"}\n\n', finishedEvent()),
    "unknown type": upstreamRun({ type: "LAUNCH_MISSILES", target: "moon" }, ...textEvents("m", "Still here.")),
    "missing name": upstreamRun({ type: "TOOL_CALL_START", toolCallId: "c1" }, { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "{}" }),
    "wrong delta type": upstreamRun(
      { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: 42 },
    ),
    "object delta": upstreamRun(...textEvents("m", "Hi. "), { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: { toString: "x" } }),
    "garbage usage": sse(started(), ...textEvents("m", "Done."), { ...finishedEvent(), usage: [{ provider: "p", model: "m", inputTokens: "lots" }] }),
    "error object": sse(started(), { type: "RUN_ERROR", message: { secret: KEY } }),
    "long error": sse(started(), { type: "RUN_ERROR", message: `Failed with ${KEY} ${"and more ".repeat(2_000)}` }),
    "protobuf garbage": (response) => {
      response.writeHead(200, { "content-type": PROTOBUF });
      // A length prefix of 5, then five bytes that are no protobuf event.
      response.end(Buffer.from([0, 0, 0, 5, 0xff, 0xff, 0xff, 0xff, 0xff]));
    },
    "html page": (response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(`<html><body>${"<p>Welcome</p>".repeat(100)}</body></html>`);
    },
    "crlf frames": (response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      // CRLF line ends are SSE as much as LF ones (sse-starlette, the usual Python server, sends them).
      for (const event of [started(), ...textEvents("m", "Framed with CRLF."), finishedEvent()]) response.write(`data: ${JSON.stringify(event)}\r\n\r\n`);
      // Kept open: the events must arrive as they are sent, not when the stream ends.
    },
  });
});

afterAll(() => hostile?.close());

const failsWith = async (threadId: string, text: string, message: RegExp) => {
  const asked = await ask(hostile, threadId, text);
  expect(asked.status).toBe(200);
  expect(lastEvent(asked)).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_error", message: expect.stringMatching(message) });
  await expect(verified(asked.events)).resolves.toBeDefined();
  return asked;
};

describe("an upstream that sends what is not an AG-UI event", () => {
  it("ends the run on data that is not JSON, keeping what came before and never echoing a key", async () => {
    const asked = await failsWith("bad-json", "not json", /^The upstream agent sent something Tether could not read/);
    expect(spoken(asked.events)).toBe("Before. ");
    expect(JSON.stringify(asked.events)).not.toContain(KEY);
    expect(asked.messages.at(-1)).toMatchObject({ role: "assistant", content: "Before. " });
  });

  it("calls data that is not JSON unreadable even as its first event, not unreachable", async () => {
    const asked = await failsWith("bad-json-first", "not json first", /could not read/);
    expect(JSON.stringify(asked.events)).not.toContain(KEY);
  });

  it("ends the run on JSON that is not an event: not an object, or without a type", async () => {
    await failsWith("not-object", "not an object", /could not read.*not a JSON object/);
    await failsWith("no-type", "no type", /could not read.*no event type/);
  });

  it("skips an event of a type AG-UI does not have, and says so in the run's log", async () => {
    const asked = await ask(hostile, "unknown-type", "unknown type");
    expect(lastEvent(asked)).toMatchObject({ type: EventType.RUN_FINISHED });
    expect(spoken(asked.events)).toBe("Still here.");
    await verified(asked.events);
    expect(hostile.logs.get("unknown-type-r1")?.join("\n")).toContain("LAUNCH_MISSILES");
  });

  it("ends the run on an event that lacks a field or has one of the wrong type, naming the field", async () => {
    await failsWith("missing-name", "missing name", /TOOL_CALL_START.*toolCallName/);
    await failsWith("wrong-delta", "wrong delta type", /TEXT_MESSAGE_CONTENT.*delta/);
    const asked = await failsWith("object-delta", "object delta", /TEXT_MESSAGE_CONTENT.*delta/);
    expect(spoken(asked.events)).toBe("Hi. ");
  });

  it("never passes on a usage of the wrong shape: the run ends rather than send it", async () => {
    const asked = await failsWith("garbage-usage", "garbage usage", /RUN_FINISHED.*usage/);
    expect(JSON.stringify(asked.events)).not.toContain("lots");
  });

  it("tells the client an upstream's RUN_ERROR redacted and capped, whatever its message is", async () => {
    const object = await ask(hostile, "error-object", "error object");
    expect(lastEvent(object)).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_error" });
    expect(JSON.stringify(object.events)).not.toContain(KEY);
    const long = await ask(hostile, "long-error", "long error");
    expect(lastEvent(long)).toMatchObject({
      type: EventType.RUN_ERROR,
      code: "upstream_error",
      message: expect.stringMatching(/^The upstream agent failed: Failed with \[redacted\]/),
    });
    expect(lastEvent(long).message!.length).toBeLessThan(400);
  });

  it("ends the run on protobuf garbage", async () => {
    await failsWith("proto", "protobuf garbage", /could not read/);
  });

  it("refuses an answer that is not an event stream, naming its content type", async () => {
    await failsWith("html", "html page", /answered with text\/html.*not an AG-UI event stream/);
  });

  it("reads SSE framed with CRLF as it arrives", async () => {
    const asked = await ask(hostile, "crlf", "crlf frames");
    expect(lastEvent(asked)).toMatchObject({ type: EventType.RUN_FINISHED });
    expect(spoken(asked.events)).toBe("Framed with CRLF.");
  });
});
