import type { SingleAfterToolCallback } from "@google/adk";
import { BrowserTool } from "./browser-tool.ts";

/** What a tool call came to, as ADK would have answered it. */
export interface CapturedResult {
  response: Record<string, unknown>;
  /** The tool asked for a person's confirmation instead of running. */
  held: boolean;
  /** The state the tool changed: lost with the response when ADK throws before yielding it (a later call to an unknown tool). */
  stateDelta: Record<string, unknown>;
}

/**
 * Every ADK tool call's final response, by call id. ADK drops some: in a turn where one call asks for
 * confirmation, the other calls ran but their responses are never yielded or stored (the request
 * for confirmation replaces them). Tether streams and stores them from here.
 *
 * It takes the agent's place as its after-tool callback and runs the agent's own chain as ADK would
 * (the first answer wins), so the app's callbacks still shape every response. A plugin could not:
 * a plugin's answer skips the agent's callbacks.
 */
export function createCapturedResults(chain: SingleAfterToolCallback[]) {
  const results = new Map<string, CapturedResult>();
  const errors = new Map<string, string>();
  const callback: SingleAfterToolCallback = async (params) => {
    // A browser call is not the app's tool: nothing of the app's runs on it, and it has no response.
    if (params.tool instanceof BrowserTool) return undefined;
    let altered: Record<string, unknown> | undefined;
    for (const next of chain) {
      altered = (await next(params)) ?? undefined;
      if (altered) break;
    }
    const id = params.context.functionCallId;
    if (id) {
      const error = errors.get(id);
      const response = error !== undefined ? { error } : normalize(altered ?? params.response);
      const actions = params.context.actions;
      results.set(id, { response, held: id in actions.requestedToolConfirmations, stateDelta: { ...actions.stateDelta } });
    }
    return altered;
  };
  return {
    callback,
    get: (id: string) => results.get(id),
    /** A tool threw and nothing answered for it: ADK answers `{ error: message }`. */
    noteError(id: string | undefined, message: string) {
      if (id) errors.set(id, message);
    },
  };
}
export type CapturedResults = ReturnType<typeof createCapturedResults>;

/** ADK's shape for a response: an object as it is, anything else wrapped (`undefined` too, as ADK does). */
function normalize(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined || typeof value !== "object") return { result: value };
  if (Array.isArray(value)) return { results: value };
  return value as Record<string, unknown>;
}
