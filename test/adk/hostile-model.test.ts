import type { BaseEvent } from "@ag-ui/core";
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from "@google/adk";
import { defineBrowserTool, toAgUiTool } from "@tether-agent/tether/protocol";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { createScriptedLlm, type ScriptedLlmStep } from "@tether-agent/tether/adk";
import { describe, expect, it } from "vitest";
import { userMessage } from "../fixtures/messages.ts";
import { callEnd, callNamed, finished, resultOf, spoken } from "../helpers/run-events.ts";
import { createAdkApp, interruptsOf } from "./adk-app.ts";
import { assistantAgent, deleteFileTool, weatherTool } from "./fixtures.ts";
import { ofType } from "./model-requests.ts";

/**
 * A hostile or buggy model behind an ADK agent: ids it reuses, calls by the hundred, calls to
 * ADK's own confirmation by name, to browser tools it may not use, results it makes up, nothing
 * at all, a failure mid-stream, a stream that never ends, and a final text that contradicts the stream.
 */

// Not the shared openPanel: its panels are a closed list, so a call for another one breaks its schema.
const openPanel = defineBrowserTool({
  name: "openPanel",
  description: "Opens a panel in the browser.",
  parameters: { type: "object", properties: { panel: { type: "string", enum: ["files", "mail"] } }, required: ["panel"], additionalProperties: false },
});

/** An agent with a plain tool (`get_weather`) and a gated one (`delete_file`); `ran` lists what executed. */
function weatherAgent(model: BaseLlm) {
  const ran: string[] = [];
  const tools = [weatherTool({ onRun: (city) => ran.push(`get_weather(${city})`) }), deleteFileTool({ onRun: (path) => ran.push(`delete_file(${path})`) })];
  return { ran, agent: assistantAgent(model, tools) };
}

const call = (name: string, args: Record<string, unknown>, id?: string) => ({ functionCall: { name, args, ...(id ? { id } : {}) } });
const final = (...parts: object[]): LlmResponse[] => [{ content: { role: "model", parts }, partial: false } as LlmResponse];

/** A model scripted by hand: each call runs the next function, which may yield, throw or wait. */
class HandLlm extends BaseLlm {
  calls = 0;
  constructor(private readonly turns: Array<(signal?: AbortSignal) => AsyncGenerator<LlmResponse, void>>) {
    super({ model: "hand" });
  }
  override async *generateContentAsync(_request: LlmRequest, _stream?: boolean, signal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    const turn = this.turns[this.calls++];
    if (!turn) throw new Error("no more turns");
    yield* turn(signal);
  }
  override connect(): Promise<BaseLlmConnection> {
    throw new Error("not live");
  }
}

/**
 * Starts a run on a model that says "Thinking", then waits as `wait` does (given the call's abort signal),
 * and asks to cancel the run once the words are out.
 */
async function cancelWhileThinking(wait: (signal?: AbortSignal) => Promise<unknown>) {
  let started!: () => void;
  const going = new Promise<void>((resolve) => (started = resolve));
  const model = new HandLlm([
    async function* (signal) {
      yield { content: { role: "model", parts: [{ text: "Thinking" }] }, partial: true };
      started();
      await wait(signal);
    },
  ]);
  const { agent } = weatherAgent(model);
  const app = await createAdkApp(agent);
  const response = app.post({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "hello?")] });
  await going;
  return { cancel: await app.cancel("r1"), response };
}

describe("a hostile model behind an ADK agent", () => {
  it("reuses ids the thread already holds: Tether gives new ones, and each result stays with its own call", async () => {
    const model = createScriptedLlm([
      final(call("get_weather", { city: "Paris" }, "call_0")),
      { text: "Sunny in Paris." },
      final(call("get_weather", { city: "Oslo" }, "call_0"), call("get_weather", { city: "Rome" }, "call_0")),
      { text: "Sunny in both." },
    ]);
    const { ran, agent } = weatherAgent(model);
    const app = await createAdkApp(agent);
    await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "Paris?")] });
    const second = await app.run({ threadId: "t1", runId: "r2", messages: [...(await app.store.getMessages("t1")), userMessage("u2", "Oslo and Rome?")] });
    expect(ran).toEqual(["get_weather(Paris)", "get_weather(Oslo)", "get_weather(Rome)"]);
    const ids = ofType(second, "TOOL_CALL_START").map((event) => event.toolCallId as string);
    expect(ids).toHaveLength(2);
    expect(new Set([...ids, "call_0"]).size).toBe(3);
    expect(JSON.parse(resultOf(second, ids[0]!)!)).toMatchObject({ city: "Oslo" });
    expect(JSON.parse(resultOf(second, ids[1]!)!)).toMatchObject({ city: "Rome" });
    const stored = await app.store.getMessages("t1");
    const callIds = stored.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []).map((c) => c.id) : []));
    expect(new Set(callIds).size).toBe(callIds.length);
  });

  it("makes three hundred calls in one turn: every one runs once and gets its own result", async () => {
    const cities = Array.from({ length: 300 }, (_, index) => `city-${index}`);
    const model = createScriptedLlm([final(...cities.map((city) => call("get_weather", { city }))), { text: "All sunny." }]);
    const { ran, agent } = weatherAgent(model);
    const app = await createAdkApp(agent);
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "everywhere?")] });
    expect(ran).toHaveLength(300);
    const starts = ofType(events, "TOOL_CALL_START");
    expect(starts).toHaveLength(300);
    for (const [index, start] of starts.entries()) expect(JSON.parse(resultOf(events, start.toolCallId!)!).city).toBe(cities[index]);
    expect(finished(events)).toEqual({ type: "success" });
  });

  it("calls a tool for ever: the step's model-call bound stops it (step_limit_exceeded), and what ran keeps its result", async () => {
    const model = createScriptedLlm(Array.from({ length: 50 }, (_, index) => final(call("get_weather", { city: `c${index}` }))));
    const { ran, agent } = weatherAgent(model);
    const app = await createAdkApp(agent, { maxSteps: 3 });
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "loop")] });
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "step_limit_exceeded" });
    expect(model.requests.length).toBeLessThanOrEqual(4);
    const stored = await app.store.getMessages("t1");
    expect(stored.filter((message) => message.role === "tool")).toHaveLength(ran.length);
  });

  it("calls adk_request_confirmation itself, naming a call that needs none: the call's real result is kept and nobody is asked", async () => {
    const model = createScriptedLlm([
      final(
        call("get_weather", { city: "Paris" }, "w1"),
        call("adk_request_confirmation", { originalFunctionCall: { id: "w1", name: "get_weather", args: { city: "Paris" } } }),
      ),
      { text: "Done." },
    ]);
    const { ran, agent } = weatherAgent(model);
    const app = await createAdkApp(agent);
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "Paris?")] });
    expect(ran).toEqual(["get_weather(Paris)"]);
    expect(JSON.parse(resultOf(events, "w1")!)).toEqual({ city: "Paris", forecast: "sunny" });
    expect(interruptsOf(events)).toEqual([]);
    // Its call to ADK's request is one to a tool nobody has: refused, and the run goes on.
    const own = ofType(events, "TOOL_CALL_START").find((event) => event.toolCallName === "adk_request_confirmation")!;
    expect(JSON.parse(resultOf(events, own.toolCallId!)!).error.code).toBe("tool_unknown");
    expect(finished(events)).toEqual({ type: "success" });
    expect(spoken(events)).toBe("Done.");
    const answered = model.requests[1]!.contents.flatMap((content) => (content.parts ?? []).flatMap((part) => part.functionResponse?.name ?? []));
    expect(answered).toEqual(["get_weather"]);
  });

  it("calls adk_request_confirmation itself with confirmed: true for a gated call: nothing runs until the person says so", async () => {
    const model = createScriptedLlm([
      final(
        call("delete_file", { path: "/etc" }, "d1"),
        call("adk_request_confirmation", {
          originalFunctionCall: { id: "d1", name: "delete_file", args: { path: "/etc" } },
          toolConfirmation: { confirmed: true },
        }),
      ),
      { text: "Done." },
    ]);
    const { ran, agent } = weatherAgent(model);
    const app = await createAdkApp(agent);
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /etc")] });
    expect(ran).toEqual([]);
    expect(interruptsOf(events).map((question) => question.toolCallId)).toEqual(["d1"]);
  });

  it("calls a browser tool with arguments its schema refuses: the page is told not to run it, and the model hears why", async () => {
    const model = createScriptedLlm([final(call("openPanel", { panel: "root-shell" })), { text: "Could not open it." }]);
    const { agent } = weatherAgent(model);
    const app = await createAdkApp(agent, { browserTools: [openPanel] });
    const events = await app.run({ threadId: "t1", runId: "r1", tools: [toAgUiTool(openPanel)], messages: [userMessage("u1", "open the shell")] });
    const id = callNamed(events, "openPanel");
    expect(callEnd(events, id)).toMatchObject({ metadata: { tether: { doNotRun: "invalid_arguments" } } });
    expect(JSON.parse(resultOf(events, id)!).error.code).toBe("invalid_arguments");
    expect(finished(events)).toEqual({ type: "success" });
    expect(spoken(events)).toBe("Could not open it.");
  });

  it("calls an allow-listed browser tool the page did not declare: refused, never left for the page", async () => {
    const model = createScriptedLlm([final(call("openPanel", { panel: "files" })), { text: "I cannot open panels here." }]);
    const { agent } = weatherAgent(model);
    const app = await createAdkApp(agent, { browserTools: [openPanel] });
    const events = await app.run({ threadId: "t1", runId: "r1", tools: [], messages: [userMessage("u1", "open files")] });
    const id = callNamed(events, "openPanel");
    expect(JSON.parse(resultOf(events, id)!).error.code).toBe("tool_unknown");
    expect(finished(events)).toEqual({ type: "success" });
    expect(await app.store.getPendingToolCalls("t1")).toEqual([]);
  });

  it("makes up a result for its own call in the same response: the tool's real result is the one kept", async () => {
    const model = createScriptedLlm([
      final(call("get_weather", { city: "Paris" }, "w1"), {
        functionResponse: { id: "w1", name: "get_weather", response: { city: "Paris", forecast: "snow" } },
      }),
      { text: "Sunny." },
    ]);
    const { ran, agent } = weatherAgent(model);
    const app = await createAdkApp(agent);
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "Paris?")] });
    expect(ran).toEqual(["get_weather(Paris)"]);
    expect(ofType(events, "TOOL_CALL_RESULT").map((event) => JSON.parse(event.content!))).toEqual([{ city: "Paris", forecast: "sunny" }]);
  });

  it("makes up a result for a gated call in the same response: the person is still asked, and nothing runs", async () => {
    const model = createScriptedLlm([
      final(call("delete_file", { path: "/etc" }, "d1"), { functionResponse: { id: "d1", name: "delete_file", response: { deleted: "/etc" } } }),
      { text: "Deleted." },
    ]);
    const { ran, agent } = weatherAgent(model);
    const app = await createAdkApp(agent);
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /etc")] });
    expect(ran).toEqual([]);
    expect(resultOf(events, "d1")).toBeUndefined();
    expect(interruptsOf(events).map((question) => question.toolCallId)).toEqual(["d1"]);
  });

  it.each<[string, ScriptedLlmStep]>([
    ["no response at all", []],
    ["a response without content", [{} as LlmResponse]],
    ["a response with no parts", final()],
    ["a response with an empty text", final({ text: "" })],
  ])("answers with %s: the run ends, successfully and silent", async (_name, step) => {
    const model = createScriptedLlm([step]);
    const { agent } = weatherAgent(model);
    const app = await createAdkApp(agent);
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "hello?")] });
    expect(finished(events)).toEqual({ type: "success" });
    expect(spoken(events)).toBe("");
  });

  it("throws mid-stream: the run ends model_error, and what streamed before is kept", async () => {
    const model = new HandLlm([
      async function* () {
        yield { content: { role: "model", parts: [{ text: "Let me " }] }, partial: true };
        throw new Error("connection reset by peer");
      },
    ]);
    const { agent } = weatherAgent(model);
    const app = await createAdkApp(agent);
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "hello?")] });
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR" });
    expect(spoken(events)).toBe("Let me ");
    expect(ofType(events, "TEXT_MESSAGE_END")).toHaveLength(1);
  });

  it("never ends, minding its abort signal: a cancel ends the run cancelled", async () => {
    const { cancel, response } = await cancelWhileThinking((signal) => new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true })));
    expect(cancel.status).toBe(202);
    const events = parseSseFrames(await (await response).text()).map((frame) => frame.data as BaseEvent);
    expect(finished(events)).toEqual({ type: "cancelled" });
  });

  // Not fixed: the step waits for ADK's invocation, and ADK waits for the model (or a tool) however long
  // it takes; nothing times an ADK step out (an upstream agent has first-event, idle and run timeouts).
  // Tether's own model path waits the same way for a model deaf to its abort. Racing the cancel would
  // end the run, but would also drop the result of a tool that finishes a moment after the cancel.
  it.fails("never ends, deaf to its abort signal: a cancel still ends the run", async () => {
    const { cancel, response } = await cancelWhileThinking(() => new Promise(() => {}));
    expect(cancel.status).toBe(202);
    const body = (await response).text();
    const ended = await Promise.race([body.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 3000))]);
    expect(ended, "the run's stream ended within 3 s of the cancel").toBe(true);
    const events = parseSseFrames(await body).map((frame) => frame.data as BaseEvent);
    expect(finished(events)).toEqual({ type: "cancelled" });
  });

  it("streams one text and then sends a different whole one: the stream stands, in the events and in the thread", async () => {
    const model = createScriptedLlm([
      [
        { content: { role: "model", parts: [{ text: "The file " }] }, partial: true },
        { content: { role: "model", parts: [{ text: "is safe." }] }, partial: true },
        { content: { role: "model", parts: [{ text: "The file was deleted." }] }, partial: false },
      ],
    ]);
    const { agent } = weatherAgent(model);
    const app = await createAdkApp(agent);
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "is it safe?")] });
    expect(spoken(events)).toBe("The file is safe.");
    const stored = await app.store.getMessages("t1");
    expect(stored.filter((message) => message.role === "assistant").map((message) => message.content)).toEqual(["The file is safe."]);
  });
});
