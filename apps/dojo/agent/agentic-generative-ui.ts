import { setTimeout as sleep } from "node:timers/promises";
import { defineState, defineTool, type Playbook } from "@tether-agent/tether/server";
import { z } from "zod";

const step = z.object({
  description: z.string().min(1).max(120).describe("The text of the step in gerund form"),
  status: z.enum(["pending", "completed"]).describe("always 'pending'"),
});

/** The page draws `steps` as a progress list; only the agent changes it. */
export const taskProgress = defineState(z.object({ steps: z.array(step).max(20) }), { initial: { steps: [] } });

export interface AgenticGenerativeUiOptions {
  /** How long each step "takes", so the page shows progress. Default 600 ms; 0 in tests. */
  stepMs?: number;
}

/**
 * A long server tool that reports its progress as state: it writes every step
 * as `pending`, then marks each `completed` as it ends, one STATE_DELTA per
 * step, so the page's progress list moves while the tool runs. The work is
 * pretend (a pause per step); the progress reporting is the point.
 */
export function generateTaskStepsTool(options: AgenticGenerativeUiOptions = {}) {
  const stepMs = options.stepMs ?? 600;
  return defineTool({
    name: "generate_task_steps_generative_ui",
    description:
      "Make up 10 steps (only a couple of words per step) that are required for a task. The step should be in gerund form (i.e. Digging hole, opening door, ...)",
    parameters: z.object({ steps: z.array(step).min(1).max(20) }),
    execute: async ({ steps }, context) => {
      const progress = taskProgress.in(context);
      progress.set({ steps: steps.map((s) => ({ description: s.description, status: "pending" as const })) });
      for (const [index] of steps.entries()) {
        await sleep(stepMs, undefined, { signal: context.signal });
        progress.patch([{ op: "replace", path: `/steps/${index}/status`, value: "completed" }]);
      }
      return { completed: steps.length };
    },
  });
}

export function agenticGenerativeUi(options: AgenticGenerativeUiOptions = {}) {
  return {
    id: "agentic_generative_ui",
    description: "Works through a task step by step; the page shows each step's progress from the agent's state.",
    instructions:
      "When asked to do or plan a task, call generate_task_steps_generative_ui with the steps, all pending. " +
      "The page shows the steps' progress from the shared state as the tool completes them; once it returns, say in one sentence that the task is done.",
    tools: [generateTaskStepsTool(options)],
    state: taskProgress,
    welcome: { greeting: "How can I help you today?", suggestions: ["Give me a plan to make brownies", "Go to Mars"] },
  };
}

const PLANS: Array<{ match: RegExp; steps: string[] }> = [
  { match: /brownie/i, steps: ["Gathering ingredients", "Melting chocolate", "Mixing batter", "Baking brownies"] },
  { match: /mars/i, steps: ["Building rocket", "Training crew", "Launching rocket", "Landing on Mars"] },
];

/** The offline model for agentic_generative_ui: picks steps from a table and calls the tool once. */
export const agenticGenerativeUiPlaybook: Playbook = {
  name: "agentic_generative_ui",
  respond(conversation) {
    const [latest] = conversation.results.slice(-1);
    if (latest?.toolName === "generate_task_steps_generative_ui") {
      if (latest.isError) return { text: "The task stopped before all its steps were done." };
      const { completed } = latest.output as { completed: number };
      return { text: `Done! All ${completed} steps are complete.` };
    }
    const said = conversation.userText;
    if (!/plan|make|go to|do|build|task/i.test(said)) return { text: 'Give me a task ("Give me a plan to make brownies") and watch its steps complete.' };
    const steps = PLANS.find((plan) => plan.match.test(said))?.steps ?? [
      "Understanding the task",
      "Planning the work",
      "Doing the work",
      "Checking the result",
    ];
    return {
      toolCalls: [{ toolName: "generate_task_steps_generative_ui", input: { steps: steps.map((description) => ({ description, status: "pending" })) } }],
    };
  },
};
