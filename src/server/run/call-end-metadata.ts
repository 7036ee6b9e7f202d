import type { DecideCall } from "../approvals/index.ts";
import type { StepCall } from "./model-step.ts";
import type { NewRun } from "./prepare-run.ts";

/**
 * What a call's TOOL_CALL_END tells the browser. A call to a tool this run
 * does not offer is marked never to run: the browser may hold a tool of that
 * name the server did not allow (or an upstream agent's own tool), and must
 * not act on a call the server is about to refuse; nor on one whose arguments
 * the server refuses (marked with the refusal's code). A browser call that needs
 * approval is marked so the browser holds it until the approval comes; a call to
 * the upstream's own tool that Tether holds for approval is never the browser's.
 */
export function callEndMetadata(call: StepCall, run: NewRun, decide: DecideCall): Record<string, unknown> | undefined {
  const tool = run.toolSet.tools.get(call.toolName);
  if (!tool) return { tether: { doNotRun: "not_allowed" } };
  // The upstream's own tool, held for approval: its answer goes back upstream, never to the page.
  if (tool.location === "upstream") return { tether: { doNotRun: "upstream" } };
  const decision = decide(call);
  // Refused for its arguments (not JSON, off the schema): a generic client would run what it was sent.
  if (decision.kind === "refused") return { tether: { doNotRun: decision.error.code } };
  return decision.kind === "ask" && decision.tool.location === "browser" ? { tether: { awaitsApproval: true } } : undefined;
}
