import { TRIGGER_LABELS, type ThreadRunChain } from "@tether-agent/tether/protocol";
import { describeEnd, formatTime } from "./format.ts";
import { runHref } from "./links.ts";

/** The thread's runs, oldest first, each with what started it and how it ended; the selected one marked. */
export function ChainView({ chain, selectedRunId }: { chain: ThreadRunChain; selectedRunId: string | undefined }) {
  return (
    <nav className="chain" aria-labelledby="chain-heading">
      <h2 id="chain-heading">Runs in this thread</h2>
      <p className="muted">
        Thread <code>{chain.threadId}</code> · agent {chain.agentId}
      </p>
      {chain.runs.length === 0 ? <p>No runs yet.</p> : null}
      <ol className="chain__runs">
        {chain.runs.map((run, index) => (
          <li key={run.runId}>
            <a
              className={`chain__run chain__run--${run.status}`}
              href={runHref(run.runId, chain.threadId)}
              aria-current={run.runId === selectedRunId ? "page" : undefined}
            >
              <span className="chain__title">
                <span className="chain__index">{index + 1}.</span> {run.trigger.summary || TRIGGER_LABELS[run.trigger.kind]}
              </span>
              <span className="chain__meta">
                <span className="tag">{run.trigger.kind}</span>
                <span className={`status status--${run.error ? "error" : run.status}`}>{describeEnd(run)}</span>
                {run.complete ? null : <span className="badge badge--warn">incomplete</span>}
                <time dateTime={run.createdAt}>{formatTime(run.createdAt)}</time>
              </span>
              <span className="chain__id">{run.runId}</span>
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
