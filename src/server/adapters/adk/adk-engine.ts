import { InMemorySessionService, Runner, StreamingMode, isBaseTool, type BaseTool, type LlmAgent } from "@google/adk";
import type { TokenUsage } from "@ag-ui/core";
import { TetherError, isTetherError } from "../../../protocol/index.ts";
import { adkFailure } from "./adk-failure.ts";
import type { EngineStepInput, StepEngine, StepResult } from "../../agent/index.ts";
import { BrowserTool } from "./browser-tool.ts";
import { createCapturedResults } from "./captured-results.ts";
import { NormalizedLlm } from "./normalized-llm.ts";
import { createAdkEventReader } from "./read-adk-events.ts";
import { replayThread } from "./replay-thread.ts";
import { RunScopePlugin } from "./tool-scope.ts";

const APP_NAME = "tether";

/**
 * An ADK agent as a step engine: each step of a Tether run is one ADK invocation on a fresh
 * in-memory session replayed from Tether's thread (nothing of ADK outlives the step), run by a
 * per-step clone of the app's agent with the step's browser tools, Tether's model wrapper and the
 * result capture. The app's `LlmAgent` is never changed.
 */
export function createAdkEngine(agent: LlmAgent, options: { maxLlmCalls: number }): StepEngine {
  return {
    provider: "adk",
    modelId: `${agent.name}/${agent.canonicalModel.model}`,
    doStep: (input) => adkStep(agent, input, options.maxLlmCalls),
  };
}

async function adkStep(base: LlmAgent, input: EngineStepInput, maxLlmCalls: number): Promise<StepResult> {
  const stop = new AbortController();
  const signal = AbortSignal.any([input.signal, stop.signal]);
  const captured = createCapturedResults(base.canonicalAfterToolCallbacks);
  const model = new NormalizedLlm(base.canonicalModel, { usedIds: input.usedToolCallIds, context: input.context });
  const browser = [...input.tools.values()].filter((tool) => tool.location === "browser").map((tool) => new BrowserTool(tool));
  const adkTools = (base.tools ?? []).filter((tool): tool is BaseTool => isBaseTool(tool));
  const reader = createAdkEventReader({
    agentName: base.name,
    adkTools: new Set(adkTools.map((tool) => tool.name)),
    browserTools: new Set(browser.map((tool) => tool.name)),
    modelCalls: model.callIds,
    modelFailed: () => model.failed,
    captured,
    confirming: new Set(input.confirmations.map(({ stored }) => stored.toolCallId)),
    emit: input.emit,
    changeState: (delta) => changeState(input, delta),
    newMessageId: input.newMessageId,
    ...(input.endMetadata ? { endMetadata: input.endMetadata } : {}),
    ...(input.onIgnored ? { onIgnored: input.onIgnored } : {}),
  });
  let error: unknown;
  try {
    const step = base.clone({ model, tools: [...(base.tools ?? []), ...browser], afterToolCallback: [captured.callback] });
    const sessionService = new InMemorySessionService();
    const scope = { user: input.user, threadId: input.threadId, runId: input.runId, signal: input.signal, state: input.state };
    const runner = new Runner({ appName: APP_NAME, agent: step, sessionService, plugins: [new RunScopePlugin(scope, captured)] });
    const { events, newMessage, lateText } = replayThread(input.messages, input.confirmations, base.name);
    model.lateText = lateText;
    const session = await sessionService.createSession({
      appName: APP_NAME,
      userId: input.user.id,
      sessionId: input.runId,
      state: clientState(input.state.get()),
    });
    for (const event of events) await sessionService.appendEvent({ session, event });
    const run = runner.runAsync({
      userId: input.user.id,
      sessionId: session.id,
      newMessage,
      runConfig: { streamingMode: StreamingMode.SSE, maxLlmCalls },
      abortSignal: signal,
    });
    for await (const event of run) {
      changeState(input, event.actions?.stateDelta);
      if (reader.handle(event) === "stop") break;
    }
  } catch (thrown) {
    error = thrown;
  }
  stop.abort();
  const result = reader.finish({ aborted: input.signal.aborted, ...(error !== undefined ? { error: toStepError(error) } : {}) });
  const usage = toUsage(model.usage, model.model);
  if (usage) result.usage = usage;
  return result;
}

/**
 * ADK's state changes as the run's, through its holder (checked, streamed, stored): one `add` (which
 * replaces) per key; `temp:` keys are ADK's own. One the agent's schema refuses is not sent and is
 * logged: ADK's session has it, Tether's state stays valid.
 */
function changeState(input: EngineStepInput, delta: Record<string, unknown> | undefined) {
  const keys = Object.keys(delta ?? {}).filter((key) => !key.startsWith("temp:"));
  if (keys.length === 0) return;
  try {
    input.state.patch(keys.map((key) => ({ op: "add", path: `/${escapePointer(key)}`, value: delta![key] })));
  } catch (error) {
    input.onIgnored?.("STATE_DELTA", isTetherError(error) ? error.message : String(error));
  }
}

/**
 * The client's state as the session's start: ADK's `app:` and `user:` scopes are an app's own data
 * across sessions and `temp:` its own per invocation, none of them the client's to set.
 */
function clientState(state: unknown): Record<string, unknown> {
  if (!isObject(state)) return {};
  return Object.fromEntries(Object.entries(state).filter(([key]) => !/^(app|user|temp):/.test(key)));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** What ADK threw (a confirmation that no longer matches its call, a model that threw), in a sentence for the run's end. */
function toStepError(thrown: unknown): TetherError {
  return isTetherError(thrown) ? thrown : adkFailure(thrown instanceof Error ? thrown.message : thrown, thrown);
}

/** ADK's usage per model call (Gemini's fields) as the one entry a step has. */
function toUsage(entries: Usage[], modelId: string): TokenUsage | undefined {
  if (entries.length === 0) return undefined;
  const sum = (key: keyof Usage) => {
    const counts = entries.map((entry) => entry[key]).filter((count): count is number => typeof count === "number");
    return counts.length > 0 ? counts.reduce((a, b) => a + b, 0) : undefined;
  };
  const fields = {
    inputTokens: sum("promptTokenCount"),
    outputTokens: sum("candidatesTokenCount"),
    totalTokens: sum("totalTokenCount"),
    reasoningTokens: sum("thoughtsTokenCount"),
    cachedInputTokens: sum("cachedContentTokenCount"),
  };
  return { provider: "adk", model: modelId, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) };
}
type Usage = NormalizedLlm["usage"][number];
