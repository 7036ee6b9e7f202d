import { useState } from "react";

export interface PlanStep {
  description: string;
  status: "enabled" | "disabled" | "executing";
}

/** What the person answered: the plan accepted with the steps they kept, or rejected (what the tool's result carries). */
export type PlanAnswer = { accepted: true; steps: PlanStep[] } | { accepted: false };

/**
 * The proposed steps with a checkbox each, and Reject / Confirm while the
 * agent waits (the dojo's `select-steps` card); afterwards, what was answered.
 */
export function StepsCard(props: {
  steps: PlanStep[];
  waiting: boolean;
  answered: PlanAnswer | undefined;
  /** What the call's outcome says, for a call answered before this page loaded. */
  outcome: string | undefined;
  onAnswer(answer: PlanAnswer): void;
}) {
  const [ticked, setTicked] = useState(() => props.steps.map((step) => step.status !== "disabled"));
  const [answered, setAnswered] = useState(props.answered);
  const open = props.waiting && !answered;
  const kept = props.steps.filter((_, index) => ticked[index]);
  const answer = (given: PlanAnswer) => {
    setAnswered(given);
    props.onAnswer(given);
  };
  return (
    <section className="steps-card" aria-label="Proposed steps">
      <header className="steps-card__header">
        <h3>Select the steps</h3>
        <span className="muted">
          {kept.length} of {props.steps.length} selected
        </span>
      </header>
      <ul className="steps-card__list">
        {props.steps.map((step, index) => (
          <li key={index}>
            <label className={ticked[index] ? "" : "steps-card__off"}>
              <input
                type="checkbox"
                checked={ticked[index] ?? false}
                disabled={!open}
                onChange={(event) => setTicked((current) => current.map((value, at) => (at === index ? event.target.checked : value)))}
              />
              <span>{step.description}</span>
            </label>
          </li>
        ))}
      </ul>
      {open ? (
        <div className="steps-card__actions">
          <button type="button" onClick={() => answer({ accepted: false })}>
            Reject
          </button>
          <button type="button" className="primary" onClick={() => answer({ accepted: true, steps: kept.map((step) => ({ ...step, status: "enabled" })) })}>
            Confirm ({kept.length})
          </button>
        </div>
      ) : answered ? (
        <p className={`steps-card__answer steps-card__answer--${answered.accepted ? "accepted" : "rejected"}`}>
          {answered.accepted ? `✓ Accepted: ${answered.steps.length} step${answered.steps.length === 1 ? "" : "s"}` : "✗ Rejected"}
        </p>
      ) : props.outcome ? (
        <p className="steps-card__answer">{props.outcome}</p>
      ) : null}
    </section>
  );
}
