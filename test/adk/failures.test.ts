import { BaseLlm, FunctionTool, LlmAgent, LongRunningFunctionTool, SequentialAgent, type LlmRequest, type LlmResponse } from "@google/adk";
import { createScriptedLlm, defineAdkAgent, type AdkAgentDefinition } from "@tether-agent/tether/adk";
import { isTetherError } from "@tether-agent/tether/protocol";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { spoken } from "../helpers/run-events.ts";
import { createAdkApp } from "./adk-app.ts";
import { ask, assistantAgent, openPanel, weatherTool } from "./fixtures.ts";

/**
 * An ADK agent that fails, is stopped, or cannot be served: every run still ends with one
 * RUN_FINISHED or RUN_ERROR carrying a Tether code, and what was said before the end is kept.
 */

const askParis = ask("weather in Paris?");
const runError = (events: Array<{ type: string }>) => events.findLast((event) => event.type === "RUN_ERROR") as { code?: string; message?: string } | undefined;

/** `get_weather`, sunny everywhere; `ran` lists each city it was asked about. */
const sunnyWeather = (ran: string[]) => weatherTool({ onRun: (city) => ran.push(city) });

/** A model that streams a few words, then waits until its call is aborted (or gives up after a while, so a broken test ends). */
class HeldLlm extends BaseLlm {
  sawAbort = false;
  readonly streaming: Promise<void>;
  private started!: () => void;

  constructor() {
    super({ model: "held" });
    this.streaming = new Promise((resolve) => (this.started = resolve));
  }

  override async *generateContentAsync(_request: LlmRequest, _stream?: boolean, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    yield { content: { role: "model", parts: [{ text: "Let me think " }] }, partial: true };
    yield { content: { role: "model", parts: [{ text: "about Paris" }] }, partial: true };
    // Resumed only once ADK took the words above in: they have gone out.
    this.started();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5_000);
      const stop = () => (clearTimeout(timer), resolve());
      if (abortSignal?.aborted) stop();
      abortSignal?.addEventListener("abort", stop, { once: true });
    });
    this.sawAbort = abortSignal?.aborted === true;
    if (!this.sawAbort) yield { content: { role: "model", parts: [{ text: "about Paris." }] }, partial: false };
  }

  override async connect(): Promise<never> {
    throw new Error("not supported");
  }
}

describe("an ADK agent that fails", () => {
  // Guards against a converter that passes ADK's error event on as a plain end, or with the provider's own words, and drops what streamed.
  it("ends with RUN_ERROR model_error when the model answers with an error mid-stream, keeping the words said before it", async () => {
    const model = createScriptedLlm([
      [
        { content: { role: "model", parts: [{ text: "Let me check " }] }, partial: true },
        { content: { role: "model", parts: [{ text: "the weather" }] }, partial: true },
        { errorCode: "503", errorMessage: "overloaded: key sk-secret-123 was used" },
      ],
    ]);
    const app = await createAdkApp(assistantAgent(model));
    const events = await app.run({ threadId: "t1", runId: "r1", messages: askParis });

    expect(events.at(-1)?.type).toBe("RUN_ERROR");
    expect(events.filter((event) => event.type === "RUN_FINISHED")).toHaveLength(0);
    expect(runError(events)?.code).toBe("model_error");
    expect(runError(events)?.message).toContain("unavailable");
    expect(JSON.stringify(events)).not.toContain("sk-secret-123");
    expect(spoken(events)).toBe("Let me check the weather");
    expect(await app.store.getRun("r1")).toMatchObject({ status: "error", error: { code: "model_error" } });
    const stored = await app.store.getMessages("t1");
    expect(stored.at(-1)).toMatchObject({ role: "assistant", content: "Let me check the weather" });
  });

  it("ends with RUN_ERROR model_error when the model throws", async () => {
    const model = createScriptedLlm([
      () => {
        throw new Error("socket hang up");
      },
    ]);
    const app = await createAdkApp(assistantAgent(model));
    const events = await app.run({ threadId: "t1", runId: "r1", messages: askParis });

    expect(events.at(-1)?.type).toBe("RUN_ERROR");
    expect(runError(events)?.code).toBe("model_error");
    expect(await app.store.getRun("r1")).toMatchObject({ status: "error" });
  });

  // Guards against a converter that lets ADK go on after the client's cancel: ADK alone only stops when its abortSignal fires.
  it("ends a run cancelled mid-stream as cancelled; the model's call was aborted and the words said are kept", async () => {
    const model = new HeldLlm();
    const app = await createAdkApp(assistantAgent(model));
    const response = await app.post({ threadId: "t1", runId: "r1", messages: askParis });
    await model.streaming;
    const cancel = await app.cancel("r1");
    expect(cancel.status).toBe(202);
    const events = parseSseFrames(await response.text()).map((frame) => frame.data as { type: string; outcome?: unknown });

    expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
    expect(model.sawAbort).toBe(true);
    expect(spoken(events)).toBe("Let me think about Paris");
    await app.tether.runner.settled("r1");
    expect(await app.store.getRun("r1")).toMatchObject({ status: "cancelled" });
    expect((await app.store.getMessages("t1")).at(-1)).toMatchObject({ role: "assistant", content: "Let me think about Paris" });
  });

  // Guards against ADK's own bound (500 model calls per invocation): the agent's maxSteps bounds the model calls.
  it("stops a model that calls tools for ever at maxSteps model calls, with step_limit_exceeded", async () => {
    const ran: string[] = [];
    const forever = () => ({ toolCalls: [{ toolName: "get_weather", input: { city: "Paris" } }] });
    const model = createScriptedLlm(Array.from({ length: 12 }, () => forever));
    const app = await createAdkApp(assistantAgent(model, [sunnyWeather(ran)]), { maxSteps: 3 });
    const events = await app.run({ threadId: "t1", runId: "r1", messages: askParis });

    expect(events.at(-1)?.type).toBe("RUN_ERROR");
    expect(runError(events)?.code).toBe("step_limit_exceeded");
    expect(model.requests).toHaveLength(3);
    expect(ran).toEqual(["Paris", "Paris", "Paris"]);
  });
});

describe("defineAdkAgent refuses what it cannot serve", () => {
  const model = () => createScriptedLlm([]);

  function refusal(definition: Partial<AdkAgentDefinition> & Pick<AdkAgentDefinition, "agent">): { code?: string; message: string } {
    try {
      defineAdkAgent({ id: "adk", ...definition });
    } catch (error) {
      if (isTetherError(error)) return { code: error.code, message: error.message };
      throw error;
    }
    throw new Error("defineAdkAgent accepted it");
  }

  it.each([
    [
      "an agent that is not an LlmAgent",
      () => ({ agent: new SequentialAgent({ name: "steps", subAgents: [] }) as unknown as LlmAgent }),
      /must be an LlmAgent/,
    ],
    [
      "an LlmAgent with sub-agents",
      () => ({ agent: new LlmAgent({ name: "lead", model: model(), subAgents: [new LlmAgent({ name: "helper", model: model() })] }) }),
      /sub-agents/,
    ],
    ["an LlmAgent without a model", () => ({ agent: new LlmAgent({ name: "bare" }) }), /model could not be made/],
    [
      "a long-running ADK tool",
      () => ({
        agent: new LlmAgent({
          name: "assistant",
          model: model(),
          tools: [new LongRunningFunctionTool({ name: "ask_manager", description: "Asks a manager.", execute: () => undefined })],
        }),
      }),
      /ask_manager is a long-running ADK tool/,
    ],
    [
      "an ADK tool and a browser tool with the same name",
      () => ({
        agent: new LlmAgent({
          name: "assistant",
          model: model(),
          tools: [new FunctionTool({ name: "openPanel", description: "Server side.", execute: () => ({}) })],
        }),
        browserTools: [openPanel],
      }),
      /"openPanel" as an ADK tool and as a browser tool/,
    ],
    [
      "approvals naming no tool of the agent",
      () => ({
        agent: new LlmAgent({ name: "assistant", model: model(), tools: [sunnyWeather([])] }),
        approvals: { delete_file: { message: () => "Delete it?" } },
      }),
      /approvals\.delete_file names no tool/,
    ],
  ] as const)("refuses %s with config_invalid", (_, definition, words) => {
    const refused = refusal(definition());
    expect(refused.code).toBe("config_invalid");
    expect(refused.message).toMatch(words);
  });

  it("accepts the agent the refusals above start from", () => {
    expect(() =>
      defineAdkAgent({
        id: "adk",
        agent: new LlmAgent({ name: "assistant", model: model(), tools: [sunnyWeather([])] }),
        browserTools: [openPanel],
        approvals: { get_weather: { message: () => "Look it up?" } },
      }),
    ).not.toThrow();
  });
});
