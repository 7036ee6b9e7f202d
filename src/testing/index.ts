/**
 * Fakes and helpers for testing Tether apps: a scripted model for the model
 * port and the parts of a scripted turn, counting ids, SSE frame parsing, an
 * in-memory Storage, and catching TetherErrors.
 *
 * @module
 */
export { createScriptedModel, type ScriptedModel, type ScriptedStep } from "./scripted-model.ts";
export { turnParts, type TurnPartsOptions } from "../server/models/playbook/index.ts";
export { createCountingIds } from "./counting-ids.ts";
export { parseSseFrame, parseSseFrames, type SseFrame } from "./sse-frames.ts";
export { readSseFrames } from "./read-sse-frames.ts";
export { catchTetherError } from "./catch-tether-error.ts";
export { createMemoryStorage } from "./memory-storage.ts";
