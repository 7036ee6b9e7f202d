/**
 * ADK agents served by Tether (`@tether-agent/tether/adk`): `defineAdkAgent` makes an `LlmAgent` from
 * `@google/adk` a Tether agent; its tools find the run's user with `adkToolScope`. The app installs
 * `@google/adk` itself (an optional peer): nothing else in Tether loads it.
 *
 * @module
 */
export { defineAdkAgent, type AdkAgentDefinition } from "./define-adk-agent.ts";
export { adkToolScope, type AdkToolScope } from "./tool-scope.ts";
export {
  createGeminiLlm,
  createPlaybookLlm,
  createScriptedLlm,
  type GeminiLlmOptions,
  type PlaybookLlmOptions,
  type RecordedLlmRequest,
  type ScriptedLlm,
  type ScriptedLlmOptions,
  type ScriptedLlmStep,
  type ScriptedLlmTurn,
} from "./models/index.ts";
