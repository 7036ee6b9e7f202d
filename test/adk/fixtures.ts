import type { Message, ResumeEntry } from "@ag-ui/core";
import { FunctionTool, LlmAgent, type BaseLlm, type BaseTool, type LlmAgentConfig } from "@google/adk";
import { createScriptedLlm, type ScriptedLlmStep } from "@tether-agent/tether/adk";
import { defineBrowserTool } from "@tether-agent/tether/protocol";
import { z } from "zod";
import { userMessage } from "../fixtures/messages.ts";

/**
 * The tools, agents and answers the ADK tests share. Each tool takes an `onRun` to note that it really
 * ran: the tests assert on what ran, each in its own words.
 */

/** A thread's first message: the user asking `text`. */
export const ask = (text: string): Message[] => [userMessage("u1", text)];

/** ADK's `get_weather(city)`: `{ city, forecast }`, sunny unless `forecast` says otherwise. */
export function weatherTool(options: { onRun?: (city: string) => void; forecast?: (city: string) => string } = {}) {
  const { onRun, forecast = () => "sunny" } = options;
  return new FunctionTool({
    name: "get_weather",
    description: "The weather in a city.",
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      onRun?.(city);
      return { city, forecast: forecast(city) };
    },
  });
}

/**
 * ADK's `delete_file(path)`, which needs a person's confirmation: `{ deleted }`, with the person's
 * payload beside it when `echoPayload`. `onRun` is given that payload too (null when there is none).
 */
export function deleteFileTool(options: { onRun?: (path: string, payload: unknown) => void; echoPayload?: boolean } = {}) {
  return new FunctionTool({
    name: "delete_file",
    description: "Deletes a file.",
    parameters: z.object({ path: z.string() }),
    requireConfirmation: true,
    execute: ({ path }, context) => {
      const payload = context?.toolConfirmation?.payload ?? null;
      options.onRun?.(path, payload);
      return options.echoPayload ? { deleted: path, payload } : { deleted: path };
    },
  });
}

/** The one LlmAgent shape of these tests: "assistant", told to help, with `tools` (and any other setting). */
export function assistantAgent(model: BaseLlm, tools: BaseTool[] = [], config: Partial<LlmAgentConfig> = {}) {
  return new LlmAgent({ name: "assistant", model, instruction: "Help.", tools, ...config });
}

/** An assistant agent on a model that plays `steps`; the model keeps every request it was sent. */
export function scriptedAgent(steps: ScriptedLlmStep[], tools: BaseTool[] = []) {
  const model = createScriptedLlm(steps);
  return { model, agent: assistantAgent(model, tools) };
}

/** A browser tool the agent may call: opens a panel by name. */
export const openPanel = defineBrowserTool({
  name: "openPanel",
  description: "Opens a panel in the browser.",
  parameters: { type: "object", properties: { panel: { type: "string" } }, required: ["panel"], additionalProperties: false },
});

/** A person's yes to an interrupt, with their comment when given. */
export const approve = (interruptId: string, comment?: string): ResumeEntry => ({
  interruptId,
  status: "resolved",
  payload: { approved: true, ...(comment ? { comment } : {}) },
});

/** A person's no to an interrupt, with their comment when given. */
export const reject = (interruptId: string, comment?: string): ResumeEntry => ({
  interruptId,
  status: "resolved",
  payload: { approved: false, ...(comment ? { comment } : {}) },
});

/** An interrupt closed without an answer. */
export const cancel = (interruptId: string): ResumeEntry => ({ interruptId, status: "cancelled" });
