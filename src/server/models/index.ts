/**
 * Model helpers: the fetch a provider SDK is given, and AI SDK 7's models
 * (specification v4) as the v3 ones the run loop streams. This folder's entry
 * file: other folders import it, never its modules.
 *
 * @module
 */
export { providerFetch } from "./provider-fetch.ts";
export { toLanguageModelV3, type LanguageModelV4, type LanguageModelV4StreamPart } from "./language-model-v4.ts";
