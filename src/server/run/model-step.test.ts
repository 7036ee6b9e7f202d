import { getEventListeners } from "node:events";
import type { BaseEvent } from "@ag-ui/core";
import { APICallError, type LanguageModelV3, type LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createScriptedModel } from "../../testing/index.ts";
import type { RetryPolicy } from "../agent/index.ts";
import { streamModelStep } from "./model-step.ts";

const token = (delta: string): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta });

/** A model whose stream hands out the given parts one read at a time; `pulls` counts the reads it answered. */
function modelOf(parts: LanguageModelV3StreamPart[], options: { beforePart?: (index: number) => Promise<void> } = {}) {
  const state = { pulls: 0, cancelled: false };
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "test",
    modelId: "parts",
    supportedUrls: {},
    async doStream() {
      let next = 0;
      const stream = new ReadableStream<LanguageModelV3StreamPart>(
        {
          async pull(controller) {
            await options.beforePart?.(next);
            state.pulls++;
            if (next === parts.length) controller.close();
            else controller.enqueue(parts[next++]!);
          },
          cancel() {
            state.cancelled = true;
          },
        },
        { highWaterMark: 0 },
      );
      return { stream };
    },
    async doGenerate() {
      throw new Error("streams only");
    },
  };
  return { model, state };
}

function step(model: LanguageModelV3, signal: AbortSignal, events: BaseEvent[], retry?: RetryPolicy) {
  let ids = 0;
  return streamModelStep({
    model,
    prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    tools: [],
    signal,
    emit: (event) => events.push(event),
    newMessageId: () => `m${++ids}`,
    newToolCallId: () => `c${++ids}`,
    usedToolCallIds: new Set(),
    ...(retry ? { retry } : {}),
  });
}

describe("streamModelStep", () => {
  it("stops reading the model's stream as soon as the run is aborted, with what came before kept", async () => {
    const controller = new AbortController();
    let releaseThird!: () => void;
    const third = new Promise<void>((resolve) => (releaseThird = resolve));
    const { model, state } = modelOf([token("One"), token(" two"), token(" three"), token(" four")], {
      beforePart: (index) => (index === 2 ? third : Promise.resolve()),
    });
    const events: BaseEvent[] = [];
    const result = step(model, controller.signal, events);
    await new Promise((resolve) => setTimeout(resolve, 10)); // two tokens in; the third is on its way
    controller.abort();
    releaseThird();

    const { aborted, message } = await result;
    expect(aborted).toBe(true);
    // The token already on its way when the abort came is kept; nothing after it is read.
    expect(message).toMatchObject({ content: "One two three" });
    expect(state.pulls).toBe(3);
    expect(state.cancelled).toBe(true);
    expect(events.map((event) => event.type)).toEqual([
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
    ]);
  });

  it("reads nothing when the run was aborted before the stream opened", async () => {
    const controller = new AbortController();
    controller.abort();
    const { model, state } = modelOf([token("Hello")]);
    const events: BaseEvent[] = [];
    const result = await step(model, controller.signal, events);
    expect(result.aborted).toBe(true);
    expect(result.message).toBeUndefined();
    expect(events).toEqual([]);
    expect(state.pulls).toBe(0);
  });

  it("stops at once when the run is aborted during the pause before a refused call is tried again, with no listener left", async () => {
    const controller = new AbortController();
    const busy = new APICallError({ message: "busy", url: "https://model.test", requestBodyValues: {}, statusCode: 503, isRetryable: true });
    const model = createScriptedModel([
      () => {
        throw busy;
      },
    ]);
    const events: BaseEvent[] = [];
    const started = performance.now();
    const result = step(model, controller.signal, events, { maxRetries: 2, initialDelayMs: 10_000, maxDelayMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 10)); // refused once, pausing
    controller.abort();

    const { aborted, error, message } = await result;
    expect({ aborted, error, message, calls: model.calls.length }).toEqual({ aborted: true, error: undefined, message: undefined, calls: 1 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(events).toEqual([]);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);

    // Refused for good, no abort: the step fails, and leaves no listener on the run's signal either.
    const running = new AbortController();
    const badRequest = new APICallError({ message: "bad request", url: "https://model.test", requestBodyValues: {}, statusCode: 400, isRetryable: false });
    const refused = createScriptedModel([
      () => {
        throw badRequest;
      },
    ]);
    expect((await step(refused, running.signal, [])).error).toBeDefined();
    expect(getEventListeners(running.signal, "abort")).toHaveLength(0);
  });

  it("leaves no listener on the run's signal after a step, however it ended", async () => {
    const controller = new AbortController();
    const model = createScriptedModel([{ text: "Hi" }, { text: "Hi" }, { text: "Hi" }, { parts: [token("Hi")], throwAfter: new Error("upstream went away") }]);
    for (let index = 0; index < 3; index++) expect((await step(model, controller.signal, [])).message).toMatchObject({ content: "Hi" });
    expect((await step(model, controller.signal, [])).error).toBeDefined();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
