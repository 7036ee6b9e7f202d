/**
 * ADK models: the test fake, Tether's offline playbook, and ADK's Gemini at
 * a base URL of its own. This folder's entry file: the adapter's other
 * modules and its index.ts take the models from here.
 *
 * @module
 */
export type { AdkContent, AdkPart, AdkUsage, DeclaredFunction } from "./adk-request.ts";
export { createGeminiLlm, type GeminiLlmOptions } from "./gemini-llm.ts";
export { createPlaybookLlm, type PlaybookLlmOptions } from "./playbook-llm.ts";
export { readAdkConversation } from "./read-adk-conversation.ts";
export {
  createScriptedLlm,
  type RecordedLlmRequest,
  type ScriptedLlm,
  type ScriptedLlmOptions,
  type ScriptedLlmStep,
  type ScriptedLlmTurn,
} from "./scripted-llm.ts";
