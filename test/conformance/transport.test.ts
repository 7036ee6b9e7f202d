import { EventType, runHttpRequest, transformHttpEventStream, verifyEvents, type BaseEvent } from "@ag-ui/client";
import { AGUI_MEDIA_TYPE } from "@ag-ui/encoder";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { parseSseFrames, readSseFrames, type SseFrame } from "@tether-agent/tether/testing";
import { lastValueFrom, toArray } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";

const input = (threadId: string, runId: string, text = "open the work request list") => ({
  threadId,
  runId,
  messages: [{ id: `${runId}-u`, role: "user", content: text }],
  tools: [toAgUiTool(navigateToScreen)],
  context: [],
});

/** The reference client's own transport pipeline: HTTP → parse (SSE or protobuf by content type) → verify. */
async function readWithClient(response: () => Promise<Response>): Promise<BaseEvent[]> {
  return lastValueFrom(transformHttpEventStream(runHttpRequest(response)).pipe(verifyEvents(), toArray()));
}

/** Reads SSE frames from a response until `count` frames arrived, then drops the connection. */
async function readFramesThenDrop(response: Response, count: number, abort: AbortController): Promise<SseFrame[]> {
  const stream = readSseFrames(response);
  const frames = await stream.until(count);
  if (frames.length < count) throw new Error(`The stream ended after ${frames.length} frames.`);
  abort.abort();
  await stream.cancel().catch(() => {});
  return frames.slice(0, count);
}

describe("transport", () => {
  let server: DemoServer;
  const post = (body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(`${server.url}/api/agents/workdesk/run`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${server.token("kim")}`, ...headers },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${server.token("kim")}`, ...headers } });

  beforeAll(async () => {
    // A few milliseconds between stream parts, so a client can leave while the run is still going.
    server = await startDemoServer({ playbook: { chunkDelayMs: 4 } });
  });
  afterAll(async () => {
    await server.close();
  });

  it("streams protobuf when Accept asks for it, and the same events as SSE otherwise", async () => {
    let contentType = "";
    const binary = await readWithClient(async () => {
      const response = await post(input("proto-1", "proto-1-r1"), { Accept: AGUI_MEDIA_TYPE });
      contentType = response.headers.get("content-type") ?? "";
      return response;
    });
    expect(contentType).toBe(AGUI_MEDIA_TYPE);
    const sse = await readWithClient(() => post(input("proto-2", "proto-2-r1"), { Accept: "text/event-stream" }));
    expect(binary.map((event) => event.type)).toEqual(sse.map((event) => event.type));
    expect(binary.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, runId: "proto-1-r1" });
  });

  it("numbers every SSE frame <runId>:<seq>, from 1 without gaps", async () => {
    const frames = parseSseFrames(await (await post(input("ids-1", "ids-1-r1"))).text());
    expect(frames.map((frame) => frame.id)).toEqual(frames.map((_, index) => `ids-1-r1:${index + 1}`));
  });

  it("keeps a run going when its client drops, and replays exactly the missed events with Last-Event-ID", async () => {
    const abort = new AbortController();
    const response = await post(input("drop-1", "drop-1-r1"), {}, abort.signal);
    const seen = await readFramesThenDrop(response, 5, abort);
    expect(server.demo.tether.hub.isLive("drop-1-r1")).toBe(true);

    await server.demo.tether.runner.settled("drop-1-r1");
    const record = await (await get("/api/runs/drop-1-r1/record")).json();
    expect(record.status).toBe("finished");
    expect(record.output.events.at(-1).event.type).toBe(EventType.RUN_FINISHED);

    const replay = parseSseFrames(await (await get("/api/threads/drop-1/events", { "Last-Event-ID": seen.at(-1)!.id! })).text());
    expect(replay[0]!.id).toBe("drop-1-r1:6");
    expect([...seen, ...replay].map((frame) => frame.id)).toEqual(record.output.events.map((stored: { seq: number }) => `drop-1-r1:${stored.seq}`));
    const [started, ...rest] = [...seen, ...replay].map((frame) => frame.data);
    // The record gives RUN_STARTED's messages as their count and ids: its `input` holds them.
    const { messages, ...startedInput } = started!.input as { messages: Array<{ id: string }> };
    const asRecorded = { ...started, input: { ...startedInput, messageCount: messages.length, messageIds: messages.map((message) => message.id) } };
    expect(record.output.events.map((stored: { event: unknown }) => stored.event)).toEqual([asRecorded, ...rest]);
  });

  it("reattaches to a run that is still going: the missed events, then the live ones, each once", async () => {
    const abort = new AbortController();
    const response = await post(input("drop-2", "drop-2-r1"), {}, abort.signal);
    const seen = await readFramesThenDrop(response, 3, abort);
    const resumed = await get("/api/threads/drop-2/events", { "Last-Event-ID": seen.at(-1)!.id! });
    expect(server.demo.tether.hub.isLive("drop-2-r1")).toBe(true);
    const rest = parseSseFrames(await resumed.text());
    const ids = [...seen, ...rest].map((frame) => frame.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(ids.map((_, index) => `drop-2-r1:${index + 1}`));
    expect(rest.at(-1)!.data.type).toBe(EventType.RUN_FINISHED);
  });

  it("replays a later run of the thread after the rest of the run named by Last-Event-ID", async () => {
    const first = parseSseFrames(await (await post(input("chain-1", "chain-1-r1"))).text());
    const toolCallId = first.at(-1)!.data.outcome.pendingToolCallIds[0];
    const continuation = {
      ...input("chain-1", "chain-1-r2"),
      messages: [{ id: "chain-1-t1", role: "tool", toolCallId, content: JSON.stringify({ status: "succeeded", stage: "displayed" }) }],
    };
    const second = parseSseFrames(await (await post(continuation)).text());
    const replay = parseSseFrames(await (await get("/api/threads/chain-1/events", { "Last-Event-ID": first.at(-3)!.id! })).text());
    expect(replay.map((frame) => frame.id)).toEqual([...first.slice(-2), ...second].map((frame) => frame.id));
  });

  it("with no Last-Event-ID, replays the thread's last run whole", async () => {
    const frames = parseSseFrames(await (await post(input("last-1", "last-1-r1"))).text());
    const replay = parseSseFrames(await (await get("/api/threads/last-1/events")).text());
    expect(replay).toEqual(frames);
  });

  it.each(["1e3", "0x10", " 3", "+3", "3.0"])("refuses a Last-Event-ID whose number is %j with invalid_last_event_id", async (seq) => {
    await (await post(input("lenient-1", "lenient-1-r1"))).text();
    const response = await get("/api/threads/lenient-1/events", { "Last-Event-ID": `lenient-1-r1:${seq}` });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_last_event_id" } });
  });

  it("sends the run's end again to a client that already had it, so the stream never ends empty", async () => {
    const frames = parseSseFrames(await (await post(input("end-1", "end-1-r1"))).text());
    const replay = parseSseFrames(await (await get("/api/threads/end-1/events", { "Last-Event-ID": frames.at(-1)!.id! })).text());
    expect(replay).toEqual([frames.at(-1)]);
  });

  it("refuses an id past the run's end, which was never sent, with invalid_last_event_id", async () => {
    const frames = parseSseFrames(await (await post(input("past-1", "past-1-r1"))).text());
    const response = await get("/api/threads/past-1/events", { "Last-Event-ID": `past-1-r1:${frames.length + 1}` });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: "invalid_last_event_id", message: expect.stringContaining(`events up to ${frames.length}`) },
    });
  });
});
