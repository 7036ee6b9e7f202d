import { TRIGGER_LABELS, describeAnswer, type RunRecordDocument } from "@tether-agent/tether/protocol";
import { KeptValue } from "../kept-value.tsx";
import { RunLink, Section } from "./section.tsx";

/** What started the run, and the runs on either side of it. */
export function StartSection({ record }: { record: RunRecordDocument }) {
  const { trigger, previousRunId, nextRunIds } = record.start;
  return (
    <Section id="start" title="Started by">
      <p>
        <span className="tag">{trigger.kind}</span> {TRIGGER_LABELS[trigger.kind] ?? trigger.kind}
        {trigger.messageId ? (
          <>
            {" "}
            (message <code>{trigger.messageId}</code>)
          </>
        ) : null}
      </p>
      {trigger.toolCallIds?.length ? (
        <p>
          Carries the outcomes of{" "}
          {trigger.toolCallIds.map((id, index) => (
            <span key={id}>
              {index > 0 ? ", " : null}
              <code>{id}</code>
            </span>
          ))}
          .
        </p>
      ) : null}
      {trigger.answers?.length ? (
        <ul aria-label="Answers">
          {trigger.answers.map((answer) => (
            <li key={answer.interruptId}>
              Approval <code>{answer.interruptId}</code>: <strong>{describeAnswer({ ...answer, runId: record.runId })}</strong>
            </li>
          ))}
        </ul>
      ) : null}
      {trigger.action ? (
        <div>
          <p>
            Clicked <strong>{trigger.action.name}</strong> on surface <code>{trigger.action.surfaceId}</code> (component{" "}
            <code>{trigger.action.sourceComponentId}</code>)
          </p>
          <KeptValue value={trigger.action.context} label="Action context" />
        </div>
      ) : null}
      <nav aria-label="Runs around this one" className="around">
        {previousRunId ? <RunLink runId={previousRunId} threadId={record.threadId} label="Previous run" /> : <span className="muted">No previous run</span>}
        {nextRunIds.length > 0 ? (
          nextRunIds.map((runId) => <RunLink key={runId} runId={runId} threadId={record.threadId} label="Next run" />)
        ) : (
          <span className="muted">No next run</span>
        )}
      </nav>
    </Section>
  );
}
