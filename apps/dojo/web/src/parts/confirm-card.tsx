import { useState } from "react";

export interface ConfirmAnswer {
  accepted: boolean;
}

/** Accept or reject what the agent just wrote (the dojo's `confirm-changes-modal`); afterwards, what was answered. */
export function ConfirmCard(props: {
  waiting: boolean;
  answered: ConfirmAnswer | undefined;
  /** What the call's outcome says, for a call answered before this page loaded. */
  outcome: string | undefined;
  onAnswer(answer: ConfirmAnswer): void;
}) {
  const [answered, setAnswered] = useState(props.answered);
  const answer = (given: ConfirmAnswer) => {
    setAnswered(given);
    props.onAnswer(given);
  };
  return (
    <section className="confirm-card" aria-label="Confirm changes">
      <h3>Confirm changes</h3>
      <p>Do you want to accept the changes to the document?</p>
      {props.waiting && !answered ? (
        <div className="confirm-card__actions">
          <button type="button" onClick={() => answer({ accepted: false })}>
            Reject
          </button>
          <button type="button" className="primary" onClick={() => answer({ accepted: true })}>
            Accept
          </button>
        </div>
      ) : answered ? (
        <p className={`confirm-card__answer confirm-card__answer--${answered.accepted ? "accepted" : "rejected"}`}>
          {answered.accepted ? "✓ Accepted" : "✗ Rejected: the document is back as it was"}
        </p>
      ) : props.outcome ? (
        <p className="confirm-card__answer">{props.outcome}</p>
      ) : null}
    </section>
  );
}
