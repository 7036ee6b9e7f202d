import type { HttpAgentFetchFn } from "@ag-ui/client";
import type { AgentCapabilities } from "@ag-ui/core";
import { errorFromResponse } from "../errors.ts";

/**
 * The agent's capabilities, fetched once per session and shared by what
 * needs them (the drift check, the welcome); a failed fetch is tried again
 * next time.
 */
export function createCapabilitiesLoader(url: string, fetch: HttpAgentFetchFn, headers: Record<string, string>): () => Promise<AgentCapabilities> {
  let loaded: Promise<AgentCapabilities> | undefined;
  const load = async (): Promise<AgentCapabilities> => {
    const response = await fetch(url, { headers });
    if (!response.ok) throw await errorFromResponse(response);
    return (await response.json()) as AgentCapabilities;
  };
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}
