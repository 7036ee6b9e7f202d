import { EventType, type BaseEvent, type Event } from "@ag-ui/core";
import { lastValueFrom, tap, toArray } from "rxjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isTetherError } from "../../protocol/index.ts";
import { eventStream, type EventStreamOptions } from "./event-stream.ts";

const THREAD = "thread-1";
const RUN = "run";

/** A run's events as the server logs them, each with its id `run:<seq>`. */
const LOG: Array<{ id: string; event: Event }> = [
  { type: EventType.RUN_STARTED, threadId: THREAD, runId: RUN },
  { type: EventType.TEXT_MESSAGE_START, messageId: "m1", role: "assistant" },
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "Opening " },
  { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: "the list." },
  { type: EventType.TEXT_MESSAGE_END, messageId: "m1" },
  { type: EventType.TOOL_CALL_START, toolCallId: "a", toolCallName: "navigateToScreen" },
  { type: EventType.TOOL_CALL_ARGS, toolCallId: "a", delta: '{"screenId":"MNU-3120"}' },
  { type: EventType.TOOL_CALL_END, toolCallId: "a" },
  { type: EventType.RUN_FINISHED, threadId: THREAD, runId: RUN },
].map((event, index) => ({ id: `${RUN}:${index + 1}`, event: event as Event }));

const frame = ({ id, event }: { id: string; event: Event }) => `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`;

/** Events after the one with this id, as a `Last-Event-ID` resume returns them. */
const after = (lastEventId: string | undefined) => LOG.slice(lastEventId === undefined ? 0 : LOG.findIndex((entry) => entry.id === lastEventId) + 1);

/** An SSE response whose body yields `chunks` one read at a time, then ends, or drops like a lost connection. */
function sseResponse(chunks: string[], end: "close" | "drop" = "close"): Response {
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(encoder.encode(chunks[next++]!));
      else if (end === "drop") controller.error(new TypeError("network error"));
      else controller.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
}

const errorResponse = (status: number, code: string, message: string) =>
  new Response(JSON.stringify({ error: { code, message } }), { status, headers: { "Content-Type": "application/json" } });

/** A fake server: `open` answers from `opened`, each resume from the next entry of `resumes` (the rest of the log by default). */
function fakeServer(opened: () => Response | Promise<Response>, resumes: Array<(lastEventId: string | undefined) => Response | Promise<Response>> = []) {
  const ids: string[] = [];
  const open = vi.fn<EventStreamOptions["open"]>(async () => opened());
  let resumed = 0;
  const resume = vi.fn<EventStreamOptions["resume"]>(async (lastEventId) => {
    const answer = resumes[resumed++];
    return answer ? answer(lastEventId) : sseResponse(after(lastEventId).map(frame));
  });
  return { open, resume, ids, options: { open, resume, onEventId: (id: string) => ids.push(id), backoffMs: 1 } satisfies EventStreamOptions };
}

const collect = (options: EventStreamOptions) => lastValueFrom(eventStream(options).pipe(toArray()));
const failure = (options: EventStreamOptions) =>
  collect(options).then(
    () => {
      throw new Error("the stream completed");
    },
    (error: unknown) => error,
  );

const types = (events: BaseEvent[]) => events.map((event) => event.type);
const ALL_TYPES = LOG.map((entry) => entry.event.type);
const ALL_IDS = LOG.map((entry) => entry.id);

describe("eventStream", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("emits every event in order and completes after RUN_FINISHED, without reconnecting", async () => {
    const server = fakeServer(() => sseResponse(LOG.map(frame)));
    const events = await collect(server.options);
    expect(types(events)).toEqual(ALL_TYPES);
    expect(events).toEqual(LOG.map((entry) => entry.event));
    expect(server.ids).toEqual(ALL_IDS);
    expect(server.resume).not.toHaveBeenCalled();
  });

  it("resumes after the last event id when the stream drops, and emits every event exactly once", async () => {
    const server = fakeServer(() => sseResponse(LOG.slice(0, 4).map(frame), "drop"));
    const events = await collect(server.options);
    expect(server.resume).toHaveBeenCalledTimes(1);
    expect(server.resume.mock.calls[0]![0]).toBe("run:4");
    expect(types(events)).toEqual(ALL_TYPES);
    expect(server.ids).toEqual(ALL_IDS);
  });

  it("drops the half-received frame and gets it again from the resume", async () => {
    const partial = frame(LOG[5]!).slice(0, 30);
    const server = fakeServer(() => sseResponse([...LOG.slice(0, 5).map(frame), partial], "drop"));
    const events = await collect(server.options);
    expect(server.resume.mock.calls[0]![0]).toBe("run:5");
    expect(types(events)).toEqual(ALL_TYPES);
  });

  it("drops a complete frame still missing its blank line, and gets it again from the resume", async () => {
    const unterminated = frame(LOG[5]!).slice(0, -1);
    const server = fakeServer(() => sseResponse([...LOG.slice(0, 5).map(frame), unterminated], "drop"));
    const events = await collect(server.options);
    expect(server.resume.mock.calls[0]![0]).toBe("run:5");
    expect(types(events)).toEqual(ALL_TYPES);
  });

  it("carries on across several drops, each resume after the latest event id", async () => {
    const server = fakeServer(
      () => sseResponse(LOG.slice(0, 2).map(frame), "drop"),
      [(id) => sseResponse(after(id).slice(0, 3).map(frame), "drop"), (id) => sseResponse(after(id).slice(0, 1).map(frame), "drop")],
    );
    const events = await collect(server.options);
    expect(server.resume.mock.calls.map(([id]) => id)).toEqual(["run:2", "run:5", "run:6"]);
    expect(types(events)).toEqual(ALL_TYPES);
    expect(server.ids).toEqual(ALL_IDS);
  });

  it("resumes when the stream ends cleanly before RUN_FINISHED", async () => {
    const server = fakeServer(() => sseResponse(LOG.slice(0, 3).map(frame), "close"));
    const events = await collect(server.options);
    expect(server.resume.mock.calls[0]![0]).toBe("run:3");
    expect(types(events)).toEqual(ALL_TYPES);
  });

  it("resumes without an id when the stream drops before the first event", async () => {
    const server = fakeServer(() => sseResponse([], "drop"));
    const events = await collect(server.options);
    expect(server.resume.mock.calls[0]![0]).toBeUndefined();
    expect(types(events)).toEqual(ALL_TYPES);
  });

  it("completes after RUN_ERROR too", async () => {
    const runError = { id: "run:2", event: { type: EventType.RUN_ERROR, message: "model down", code: "model_error" } as Event };
    const server = fakeServer(() => sseResponse([frame(LOG[0]!), frame(runError)]));
    expect(types(await collect(server.options))).toEqual([EventType.RUN_STARTED, EventType.RUN_ERROR]);
    expect(server.resume).not.toHaveBeenCalled();
  });

  it("hands each event to onEvent before the Observable emits it, once, in order, across a reconnect", async () => {
    const server = fakeServer(() => sseResponse(LOG.slice(0, 3).map(frame), "drop"), [() => sseResponse(LOG.slice(3).map(frame))]);
    const seen: Array<[string, string]> = [];
    const events = await lastValueFrom(
      eventStream({ ...server.options, onEvent: (event) => seen.push(["onEvent", event.type]) }).pipe(
        tap((event) => seen.push(["next", event.type])),
        toArray(),
      ),
    );
    expect(seen).toEqual(
      events.flatMap((event) => [
        ["onEvent", event.type],
        ["next", event.type],
      ]),
    );
    expect(types(events)).toEqual(ALL_TYPES);
  });

  it("errors with the server's TetherError when open answers with a 4xx error body", async () => {
    const server = fakeServer(() => errorResponse(403, "forbidden", "You may not use this agent."));
    const error = await failure(server.options);
    expect(isTetherError(error)).toBe(true);
    expect(error).toMatchObject({ code: "forbidden", message: "You may not use this agent." });
    expect(server.resume).not.toHaveBeenCalled();
  });

  it("errors with an internal TetherError when the error body is not a Tether error", async () => {
    const server = fakeServer(() => new Response("<html>Bad gateway</html>", { status: 400 }));
    const error = await failure(server.options);
    expect(isTetherError(error)).toBe(true);
    expect(error).toMatchObject({ code: "internal", message: expect.stringMatching(/HTTP 400/) });
  });

  it("errors, without trying again, when a resume is refused with a 4xx", async () => {
    const server = fakeServer(() => sseResponse(LOG.slice(0, 2).map(frame), "drop"), [() => errorResponse(404, "thread_not_found", "No such thread.")]);
    const events: BaseEvent[] = [];
    const error = await new Promise((resolve) => eventStream(server.options).subscribe({ next: (event) => events.push(event), error: resolve }));
    expect(error).toMatchObject({ code: "thread_not_found" });
    expect(server.resume).toHaveBeenCalledTimes(1);
    expect(types(events)).toEqual(ALL_TYPES.slice(0, 2));
  });

  it("retries a resume that rejects (network down), from the same event id", async () => {
    const down = () => Promise.reject(new TypeError("Failed to fetch"));
    const server = fakeServer(() => sseResponse(LOG.slice(0, 4).map(frame), "drop"), [down, down]);
    const events = await collect(server.options);
    expect(server.resume.mock.calls.map(([id]) => id)).toEqual(["run:4", "run:4", "run:4"]);
    expect(types(events)).toEqual(ALL_TYPES);
  });

  it("doubles the pause before each reconnect", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const down = () => Promise.reject(new TypeError("Failed to fetch"));
    const server = fakeServer(() => sseResponse(LOG.slice(0, 2).map(frame), "drop"), [down, down]);
    const done = collect({ ...server.options, backoffMs: 100 });
    await vi.advanceTimersByTimeAsync(99);
    expect(server.resume).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1); // 100
    expect(server.resume).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(199); // 299
    expect(server.resume).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1); // 300
    expect(server.resume).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(399); // 699
    expect(server.resume).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1); // 700
    expect(server.resume).toHaveBeenCalledTimes(3);
    expect(types(await done)).toEqual(ALL_TYPES);
  });

  it("gives up after maxReconnects failed reconnects", async () => {
    const server = fakeServer(() => sseResponse(LOG.slice(0, 2).map(frame), "drop"));
    server.resume.mockImplementation(() => Promise.reject(new TypeError("Failed to fetch")));
    const events: BaseEvent[] = [];
    const error = await new Promise((resolve) =>
      eventStream({ ...server.options, maxReconnects: 3 }).subscribe({ next: (event) => events.push(event), error: resolve }),
    );
    expect(isTetherError(error)).toBe(true);
    expect(error).toMatchObject({ code: "network_error", message: expect.stringMatching(/3 reconnects failed/) });
    expect(server.resume).toHaveBeenCalledTimes(3);
    expect(types(events)).toEqual(ALL_TYPES.slice(0, 2));
  });

  it("gives up at once with maxReconnects 0", async () => {
    const server = fakeServer(() => sseResponse(LOG.slice(0, 2).map(frame), "drop"));
    await expect(collect({ ...server.options, maxReconnects: 0 })).rejects.toThrow(/0 reconnects failed/);
    expect(server.resume).not.toHaveBeenCalled();
  });

  it("aborts the request when the subscriber unsubscribes, and does not reconnect", async () => {
    let signal: AbortSignal | undefined;
    const server = fakeServer(() => new Promise<Response>(() => {}));
    server.open.mockImplementation((given) => {
      signal = given;
      return new Promise<Response>(() => {});
    });
    const subscription = eventStream(server.options).subscribe({});
    await Promise.resolve();
    expect(signal?.aborted).toBe(false);
    subscription.unsubscribe();
    expect(signal?.aborted).toBe(true);
    expect(server.resume).not.toHaveBeenCalled();
  });

  // Bug: event-stream.ts counts `attempt` across the whole stream and never resets it after a resume
  // that delivered events, so a long run whose connection drops 6 times, every reconnect succeeding,
  // errors with "5 reconnects failed" (and without even trying the 6th), and the pause keeps doubling.
  it("allows maxReconnects per drop, not per stream, when each reconnect succeeds", async () => {
    const oneMore = (id: string | undefined) => sseResponse(after(id).slice(0, 1).map(frame), "drop");
    const server = fakeServer(() => sseResponse(LOG.slice(0, 1).map(frame), "drop"), [oneMore, oneMore, oneMore]);
    const events = await collect({ ...server.options, maxReconnects: 2 });
    expect(types(events)).toEqual(ALL_TYPES);
  });

  // Bug: event-stream.ts throws for every non-ok resume response (`consume` → errorFromResponse), though its
  // comment says only "a refusal (4xx)" should stop the reconnects; a 503 from a proxy during a deploy ends the run.
  it("keeps reconnecting when a resume answers 503", async () => {
    const server = fakeServer(() => sseResponse(LOG.slice(0, 2).map(frame), "drop"), [() => errorResponse(503, "internal", "Service unavailable")]);
    const events = await collect(server.options);
    expect(types(events)).toEqual(ALL_TYPES);
  });
});
