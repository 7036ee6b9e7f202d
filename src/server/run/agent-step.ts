import type { BaseEvent, Message } from "@ag-ui/core";
import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import type { EngineConfirmation, StepCall, StepResult } from "../agent/index.ts";
import type { DecideCall } from "../approvals/index.ts";
import { createUpstreamEventLog, type RunFact } from "../record/index.ts";
import type { RunLogEntry } from "../store/index.ts";
import type { RunServices } from "./run-services.ts";
import type { ModelCallRequest } from "./model-call-fact.ts";
import { providerMessage, toModelError } from "./model-error.ts";
import { streamModelStep } from "./model-step.ts";
import type { NewRun } from "./prepare-run.ts";
import { statePrompt, toModelPrompt } from "./prompt.ts";
import { createStatePredictor, type RunState } from "../state/index.ts";
import { approvalsBypassed } from "./approvals-bypassed.ts";
import { produced } from "./step-messages.ts";
import { upstreamInput } from "./upstream-input.ts";
import { streamUpstreamStep } from "./upstream-step.ts";

export interface AgentStepOptions {
  run: NewRun;
  services: RunServices;
  /** The run's shared state: shown to the model, handed to the upstream or the engine. */
  state: RunState;
  /** The thread as the run holds it now. */
  messages: Message[];
  /** 1, 2, … within the run. */
  step: number;
  emit(event: BaseEvent): void;
  usedToolCallIds: Set<string>;
  tools: LanguageModelV3FunctionTool[];
  decide: DecideCall;
  endMetadata(call: StepCall): Record<string, unknown> | undefined;
  /** Answers for an engine's own held calls: its first step delivers them. */
  confirmations: EngineConfirmation[];
  /** Record facts for the run's next write. */
  facts: RunFact[];
}

/**
 * One step of the run by whatever answers: the model Tether calls, the upstream AG-UI agent it
 * relays, or the engine it runs in process. Each streams its events and returns what it produced
 * and the calls it left open; the loop settles them the same way.
 */
export async function takeAgentStep(options: AgentStepOptions): Promise<{ result: StepResult; request: ModelCallRequest }> {
  const { run, services, state, messages, step } = options;
  const { agent } = run;
  const ids = { signal: services.signal, emit: options.emit, newMessageId: services.ids.message, usedToolCallIds: options.usedToolCallIds };
  const ignored = createIgnoredLog();
  const writeLog = (entries: RunLogEntry[]) => {
    if (entries.length > 0) void services.store.appendLog(run.runId, entries).catch(() => {});
  };

  if (agent.stepEngine) {
    const request = { step, model: agent.engine, settings: {}, messageCount: messages.length, toolCount: options.tools.length };
    const result = await agent.stepEngine.doStep({
      ...ids,
      threadId: run.threadId,
      runId: run.runId,
      user: run.user,
      context: run.context,
      state,
      tools: run.toolSet.tools,
      messages,
      step,
      confirmations: options.confirmations,
      endMetadata: options.endMetadata,
      onIgnored: ignored.note,
    });
    writeLog(ignored.log("engine_events_ignored", "the agent's engine"));
    return { result, request };
  }

  if (agent.upstream) {
    const request = { step, model: agent.upstream, settings: {}, messageCount: messages.length, toolCount: options.tools.length };
    // The calls only Tether answers; the upstream answers its own, those held for approval included.
    const tetherTools = new Set([...run.toolSet.tools.values()].filter((tool) => tool.location !== "upstream").map((tool) => tool.name));
    // What the upstream sent, kept for the record only (no telemetry use): not even watched with records off.
    const received = services.records ? createUpstreamEventLog(step) : undefined;
    const result = await streamUpstreamStep({
      ...ids,
      newToolCallId: services.ids.toolCall,
      upstream: agent.upstream,
      user: run.user,
      input: upstreamInput(run, messages, step, structuredClone(state.get())),
      state,
      endMetadata: options.endMetadata,
      tetherTools,
      onIgnored: (event, why) => {
        ignored.note(String(event.type), why);
        received?.ignore(why);
      },
      ...(received ? { onReceived: received.receive } : {}),
    });
    if (received) options.facts.push(received.fact());
    writeLog([...ignored.log("upstream_events_ignored", "the upstream agent"), ...approvalsBypassed(produced(result), run.toolSet, options.decide)]);
    return { result, request };
  }

  const settings = { ...(options.tools.length > 0 ? { toolChoice: "auto" } : {}), maxRetries: agent.retry.maxRetries };
  // Rebuilt every step, so the model sees what a tool changed in the step before.
  const prompt = toModelPrompt(agent.instructions(run.user), run.context, messages, statePrompt(state.get(), agent.state));
  const request = { step, model: agent.model!, settings, messageCount: prompt.length, toolCount: options.tools.length };
  const result = await streamModelStep({
    ...ids,
    newToolCallId: services.ids.toolCall,
    model: agent.model!,
    prompt,
    tools: options.tools,
    endMetadata: options.endMetadata,
    // The agent's predictive state: a call's argument shown in the state while the model streams it.
    ...(agent.predictState.length > 0 ? { predictor: createStatePredictor(agent.predictState, { emit: options.emit, predict: state.predict }) } : {}),
    retry: agent.retry,
    onRetry: (error, attempt, delayMs) =>
      writeLog([
        {
          level: "warn",
          code: "model_retry",
          // The run's log is the operator's: the provider's own words (redacted) belong there.
          message: `The model provider refused the call (${toModelError(error).message} It said: ${providerMessage(error)}); attempt ${attempt + 1} in ${delayMs} ms.`,
        },
      ]),
  });
  return { result, request };
}

/**
 * What an upstream or engine did that Tether did not pass on, for the run's log: the first few,
 * each cut short (their types and ids are the other side's to make up), and how many in all.
 */
function createIgnoredLog() {
  const shown: string[] = [];
  let count = 0;
  return {
    note(type: string, why: string) {
      if (count++ < 20) shown.push(`${type.slice(0, 64)} (${why.length > 200 ? `${why.slice(0, 200)}…` : why})`);
    },
    log(code: string, from: string): RunLogEntry[] {
      if (shown.length === 0) return [];
      const more = count > 20 ? ` and ${count - 20} more` : "";
      return [{ level: "info", code, message: `Not passed on from ${from}: ${shown.join("; ")}${more}.` }];
    },
  };
}
