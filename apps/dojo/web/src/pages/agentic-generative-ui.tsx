import { useAgentState } from "@tether-agent/tether/react";
import { SplitLayout, type PageProps } from "../parts/layouts.tsx";
import { ProgressList, type TaskStep } from "../parts/progress-list.tsx";

/** agentic_generative_ui: the server tool's progress, read from the agent's state as each step's delta arrives. */
export function AgenticGenerativeUiPage({ panel }: PageProps) {
  const [state] = useAgentState<{ steps?: unknown }>();
  return <SplitLayout label="Task progress" stage={<ProgressList steps={readSteps(state.steps)} />} panel={panel} />;
}

/** The steps as far as they are steps: state is the agent's to shape, and the page draws only what it understands. */
function readSteps(value: unknown): TaskStep[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((step: unknown) => {
    if (!step || typeof step !== "object") return [];
    const { description, status } = step as Record<string, unknown>;
    return typeof description === "string" ? [{ description, status: status === "completed" ? ("completed" as const) : ("pending" as const) }] : [];
  });
}
