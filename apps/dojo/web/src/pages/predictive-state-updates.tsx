import { useEffect, useRef } from "react";
import type { ToolOutcome } from "@tether-agent/tether/protocol";
import { useAgentState, useBrowserTool, useSessionStatus, useTetherSession } from "@tether-agent/tether/react";
import { confirmChanges } from "../../../agent/browser-tools.ts";
import { ConfirmCard, type ConfirmAnswer } from "../parts/confirm-card.tsx";
import { DocumentView } from "../parts/document-view.tsx";
import { SplitLayout, type PageProps } from "../parts/layouts.tsx";
import { usePersonAnswers } from "../parts/person-answers.ts";

/**
 * predictive_state_updates: the document in the agent's state, growing while
 * the model writes it (predicted from its tool's streamed argument); then
 * confirm_changes asks the person, and a rejection puts back the document as
 * it was before the agent wrote.
 */
export function PredictiveStateUpdatesPage({ panel }: PageProps) {
  const session = useTetherSession();
  const status = useSessionStatus();
  const writing = status === "running" || status === "observing";
  const [state, setState] = useAgentState<{ document?: unknown }>();
  const document = typeof state.document === "string" ? state.document : "";
  const answers = usePersonAnswers<ConfirmAnswer>();
  // The document as it stood before the agent's latest change: kept while nothing runs or waits for the person.
  const before = useRef(document);
  useEffect(() => {
    if (!writing && answers.open() === 0) before.current = document;
  }, [document, writing, answers]);
  useBrowserTool(session, {
    spec: confirmChanges,
    onReload: "run-again",
    execute: async (_args, { toolCallId }): Promise<ToolOutcome> => {
      const previous = before.current;
      const answer = await answers.wait(toolCallId);
      // Put back first: the run this answer starts carries the state as the page shows it.
      if (!answer.accepted) setState((current) => ({ ...current, document: previous }));
      const message = answer.accepted ? "The person accepted the changes." : "The person rejected the changes; the document is back as it was.";
      return { status: "succeeded", message, data: { ...answer } };
    },
    describe: ({ status: callStatus, toolCallId }) => {
      if (callStatus === "running") return "Waiting for you to accept or reject the changes";
      const answer = answers.answered(toolCallId);
      return callStatus === "succeeded" && answer ? (answer.accepted ? "You accepted the changes" : "You rejected the changes") : undefined;
    },
    render: ({ toolCallId, status: callStatus, message }) => (
      <ConfirmCard
        key={toolCallId}
        waiting={answers.waiting(toolCallId)}
        answered={answers.answered(toolCallId)}
        outcome={callStatus === "running" ? undefined : message}
        onAnswer={(answer) => answers.answer(toolCallId, answer)}
      />
    ),
  });
  const stage = <DocumentView document={document} writing={writing} onEdit={(text) => setState((current) => ({ ...current, document: text }))} />;
  return <SplitLayout label="Shared document" stage={stage} panel={panel} />;
}
