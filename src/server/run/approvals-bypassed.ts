import type { Message } from "@ag-ui/core";
import type { DecideCall } from "../approvals/index.ts";
import type { RunLogEntry } from "../store/index.ts";
import type { ToolSet } from "../tools/index.ts";

/**
 * The upstream's own calls that Tether's config holds for approval but that the upstream ran itself,
 * in the same stream, without leaving them for its client: nothing can undo them, so the run's log
 * says so (a warning for the operator: that tool should be one the upstream leaves to its client).
 */
export function approvalsBypassed(produced: Message[], toolSet: ToolSet, decide: DecideCall): RunLogEntry[] {
  const answered = new Set(produced.flatMap((message) => (message.role === "tool" ? [message.toolCallId] : [])));
  const entries: RunLogEntry[] = [];
  for (const message of produced) {
    if (message.role !== "assistant") continue;
    for (const call of message.toolCalls ?? []) {
      if (!answered.has(call.id) || toolSet.tools.get(call.function.name)?.location !== "upstream") continue;
      const decision = decide({ toolCallId: call.id, toolName: call.function.name, argumentsText: call.function.arguments });
      if (decision.kind !== "ask") continue;
      entries.push({
        level: "warn",
        code: "approval_bypassed",
        message: `The upstream agent ran ${call.function.name} (call ${call.id}) itself, before the approval Tether's config asks for: make it a tool the upstream leaves for its client to answer.`,
        details: { tool: call.function.name, toolCallId: call.id },
      });
    }
  }
  return entries;
}
