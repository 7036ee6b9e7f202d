import type { ToolOutcome } from "@tether-agent/tether/protocol";
import { useBrowserTool, useTetherSession } from "@tether-agent/tether/react";
import { generateTaskSteps } from "../../../agent/browser-tools.ts";
import { ChatLayout, type PageProps } from "../parts/layouts.tsx";
import { usePersonAnswers } from "../parts/person-answers.ts";
import { StepsCard, type PlanAnswer } from "../parts/steps-card.tsx";

/**
 * human_in_the_loop: the agent's plan shown as steps to tick; its call waits
 * for the person, and its result is their answer, `{ accepted, steps }`
 * (the shape the dojo's page sends back), as the outcome's data.
 */
export function HumanInTheLoopPage({ panel }: PageProps) {
  const session = useTetherSession();
  const answers = usePersonAnswers<PlanAnswer>();
  useBrowserTool(session, {
    spec: generateTaskSteps,
    // Reloaded while the person was choosing: ask again rather than report that nobody knows.
    onReload: "run-again",
    execute: async (_args, { toolCallId }): Promise<ToolOutcome> => {
      const answer = await answers.wait(toolCallId);
      const message = answer.accepted
        ? `The person confirmed the plan with ${answer.steps.length} step${answer.steps.length === 1 ? "" : "s"}.`
        : "The person rejected the plan: do none of it.";
      // Asked and answered: the tool did its job either way, and what the person chose is its data.
      return { status: "succeeded", message, data: answer };
    },
    describe: ({ status, toolCallId }) => {
      const answer = answers.answered(toolCallId);
      if (status === "running") return "Waiting for you to choose the steps";
      if (status !== "succeeded" || !answer) return undefined;
      return answer.accepted ? `You confirmed ${answer.steps.length} step${answer.steps.length === 1 ? "" : "s"}` : "You rejected the plan";
    },
    render: ({ args, toolCallId, status, message }) =>
      args ? (
        <StepsCard
          key={toolCallId}
          steps={args.steps}
          waiting={answers.waiting(toolCallId)}
          answered={answers.answered(toolCallId)}
          outcome={status === "running" ? undefined : message}
          onAnswer={(answer) => answers.answer(toolCallId, answer)}
        />
      ) : (
        <p className="tool-note" role="status">
          <span className="spinner" aria-hidden="true" /> Planning the steps…
        </p>
      ),
  });
  return <ChatLayout label="Planning chat" panel={panel} />;
}
