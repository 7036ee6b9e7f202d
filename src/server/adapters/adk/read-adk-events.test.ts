import { createEvent } from "@google/adk";
import type { BaseEvent } from "@ag-ui/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCapturedResults } from "./captured-results.ts";
import { createAdkEventReader } from "./read-adk-events.ts";

function reader(options: { adkTools?: string[]; browserTools?: string[] } = {}) {
  const events: BaseEvent[] = [];
  const ignored: string[] = [];
  let ids = 0;
  const read = createAdkEventReader({
    agentName: "assistant",
    adkTools: new Set(options.adkTools ?? ["lookup"]),
    browserTools: new Set(options.browserTools ?? []),
    modelCalls: new Set(),
    captured: createCapturedResults([]),
    confirming: new Set(),
    emit: (event) => events.push(event),
    newMessageId: () => `m${++ids}`,
    onIgnored: (what, why) => ignored.push(`${what}: ${why}`),
  });
  return { read, events, ignored };
}

const callsEvent = (calls: Array<{ id: string; n: number }>) =>
  createEvent({
    invocationId: "i",
    author: "assistant",
    content: { role: "model", parts: calls.map(({ id, n }) => ({ functionCall: { id, name: "lookup", args: { n } } })) },
  });
const responsesEvent = (responses: Array<{ id: string; n: number }>) =>
  createEvent({
    invocationId: "i",
    author: "assistant",
    content: { role: "user", parts: responses.map(({ id, n }) => ({ functionResponse: { id, name: "lookup", response: { found: n } } })) },
  });
const results = (events: BaseEvent[]) =>
  events.flatMap((event) => (event.type === "TOOL_CALL_RESULT" ? [event as BaseEvent & { toolCallId: string; content: string }] : []));

describe("reading ADK's events", () => {
  it("pairs each result with the call of its id, whatever order parallel calls of one tool are answered in", () => {
    const calls = fc.integer({ min: 2, max: 7 }).chain((count) =>
      fc.shuffledSubarray(
        Array.from({ length: count }, (_, n) => ({ id: `adk-${n}`, n })),
        { minLength: count, maxLength: count },
      ),
    );
    fc.assert(
      fc.property(calls, (answered) => {
        const made = [...answered].sort((a, b) => a.n - b.n);
        const { read, events } = reader();
        read.handle(callsEvent(made));
        read.handle(responsesEvent(answered));
        const result = read.finish({ aborted: false });
        expect(result.calls).toEqual([]);
        for (const event of results(events)) {
          const call = made.find((one) => one.id === event.toolCallId)!;
          expect(JSON.parse(event.content)).toEqual({ found: call.n });
        }
        expect(results(events).map((event) => event.toolCallId)).toEqual(answered.map((one) => one.id));
        // Each result sits after the one assistant message, as the model is shown it next.
        const tools = result.produced!.filter((message) => message.role === "tool");
        expect(tools).toHaveLength(made.length);
      }),
    );
  });

  it("takes one result per call: a second one, or one for a call never made, is noted and dropped", () => {
    const { read, events, ignored } = reader();
    read.handle(callsEvent([{ id: "adk-1", n: 1 }]));
    read.handle(responsesEvent([{ id: "adk-1", n: 1 }]));
    read.handle(responsesEvent([{ id: "adk-1", n: 99 }]));
    read.handle(responsesEvent([{ id: "adk-7", n: 7 }]));
    read.finish({ aborted: false });
    expect(results(events).map((event) => event.content)).toEqual([JSON.stringify({ found: 1 })]);
    expect(ignored).toEqual([expect.stringContaining("a second result for call adk-1"), expect.stringContaining("adk-7, which the agent never made")]);
  });

  it("leaves a browser call open for Tether, and never takes a result for it from ADK", () => {
    const { read, events, ignored } = reader({ browserTools: ["openPanel"] });
    read.handle(
      createEvent({
        invocationId: "i",
        author: "assistant",
        content: { role: "model", parts: [{ functionCall: { id: "adk-b", name: "openPanel", args: { panel: "files" } } }] },
      }),
    );
    read.handle(
      createEvent({
        invocationId: "i",
        author: "assistant",
        content: { role: "user", parts: [{ functionResponse: { id: "adk-b", name: "openPanel", response: { status: "success" } } }] },
      }),
    );
    const result = read.finish({ aborted: false });
    expect(result.calls.map((call) => call.toolCallId)).toEqual(["adk-b"]);
    expect(results(events)).toEqual([]);
    expect(ignored).toEqual([expect.stringContaining("not ADK's to answer")]);
  });

  it("streams text once: the whole response ADK repeats after its partials adds only what did not stream", () => {
    const { read, events } = reader();
    const text = (value: string, partial: boolean) =>
      createEvent({ invocationId: "i", author: "assistant", partial, content: { role: "model", parts: [{ text: value }] } });
    read.handle(text("Hel", true));
    read.handle(text("lo", true));
    read.handle(text("Hello there.", false));
    const result = read.finish({ aborted: false });
    const deltas = events.flatMap((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? [(event as BaseEvent & { delta: string }).delta] : []));
    expect(deltas).toEqual(["Hel", "lo", " there."]);
    expect(result.message?.content).toBe("Hello there.");
  });

  it("reads a last chunk whose finish reason ADK put in errorCode as the normal end it is when it is STOP, and as a failure otherwise", () => {
    const ended = (errorCode: string) => {
      const { read } = reader();
      read.handle(createEvent({ invocationId: "i", author: "assistant", content: { role: "model", parts: [{ text: "Done." }] } }));
      read.handle(createEvent({ invocationId: "i", author: "assistant", errorCode }));
      return read.finish({ aborted: false });
    };
    expect(ended("STOP").error).toBeUndefined();
    expect(ended("SAFETY").error?.code).toBe("model_error");
  });
});
