import type { RecordToolDecision } from "../../protocol/index.ts";
import type { ToolSet } from "../tools/index.ts";
import type { ToolsOfferedFact } from "./run-facts.ts";

/**
 * Every tool a run considered and what was decided: the tools in its set are
 * offered to the model; a declared browser tool the allow-list left out (policy
 * `drop`) is dropped, with the refusal's code and words from the run's log.
 */
export function offeredTools(toolSet: ToolSet): ToolsOfferedFact {
  const tools: RecordToolDecision[] = [...toolSet.tools.values()].map((tool) => ({ name: tool.name, location: tool.location, decision: "offered" }));
  for (const entry of toolSet.log) {
    const details = entry.details as { tool?: string; reason?: string } | undefined;
    if (entry.code !== "tool_dropped" || !details?.tool) continue;
    tools.push({ name: details.tool, location: "browser", decision: "dropped", reason: { code: details.reason ?? entry.code, message: entry.message } });
  }
  return { kind: "tools", tools };
}
