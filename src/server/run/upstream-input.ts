import type { Message, RunAgentInput } from "@ag-ui/core";
import type { NewRun } from "./prepare-run.ts";

/**
 * What an upstream agent is asked for one step of a run: the thread as Tether
 * holds it (the server's history, or the client's in client mode), the tools
 * Tether lets it call (the allow-listed browser tools, as the client worded
 * them, and the agent's own server tools), the client's context and state.
 * Each step is one upstream run; the first has the run's own id.
 */
export function upstreamInput(run: NewRun, messages: Message[], step: number): RunAgentInput {
  return {
    threadId: run.threadId,
    runId: step === 1 ? run.runId : `${run.runId}-${step}`,
    messages,
    // The upstream knows its own tools; it is offered the ones Tether answers.
    tools: [...run.toolSet.tools.values()]
      .filter((tool) => tool.location !== "upstream")
      .map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.modelParameters })),
    context: run.context,
    state: run.state ?? {},
    forwardedProps: {},
  };
}
