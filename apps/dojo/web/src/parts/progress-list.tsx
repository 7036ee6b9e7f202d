export interface TaskStep {
  description: string;
  status: "pending" | "completed";
}

/** The task's steps from the agent's state, each pending or completed (the dojo's `task-progress`). */
export function ProgressList({ steps }: { steps: TaskStep[] }) {
  if (steps.length === 0) {
    return (
      <div className="progress progress--empty">
        <h2>Task progress</h2>
        <p className="muted">No task yet. Ask for one (“Give me a plan to make brownies”) and watch its steps complete here.</p>
      </div>
    );
  }
  const done = steps.filter((step) => step.status === "completed").length;
  return (
    <div className="progress">
      <header className="progress__header">
        <h2 id="progress-title">Task progress</h2>
        <span>
          {done}/{steps.length} complete
        </span>
      </header>
      <progress max={steps.length} value={done} aria-labelledby="progress-title" />
      <ol className="progress__steps" aria-label="Task steps">
        {steps.map((step, index) => (
          <li key={index} className={`progress__step progress__step--${step.status}`}>
            <span className="progress__mark" aria-hidden="true">
              {step.status === "completed" ? "✓" : <span className="spinner" />}
            </span>
            <span className="progress__text">{step.description}</span>
            <span className="progress__status">{step.status === "completed" ? "Completed" : "Pending"}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
