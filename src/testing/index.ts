/**
 * Fakes and helpers for testing Tether apps: a scripted model for the model
 * port, and SSE frame parsing.
 *
 * @module
 */
export { createScriptedModel, type ScriptedModel, type ScriptedStep } from "./scripted-model.ts";
export { parseSseFrames, type SseFrame } from "./sse-frames.ts";
