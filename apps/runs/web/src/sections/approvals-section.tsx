import { approvalsOf, describeAnswer, type RunRecordDocument } from "@tether-agent/tether/protocol";
import { KeptValue } from "../kept-value.tsx";
import { RunLink, Section } from "./section.tsx";

/** The approvals the run asked for, each with the answer its next run carried. */
export function ApprovalsSection({ record, nextRecords }: { record: RunRecordDocument; nextRecords: RunRecordDocument[] }) {
  const approvals = approvalsOf(record, nextRecords);
  if (approvals.length === 0) return null;
  return (
    <Section id="approvals" title="Approvals" count={approvals.length}>
      <ul className="cards">
        {approvals.map((approval) => (
          <li key={approval.interruptId} className="card" aria-label={`Approval ${approval.interruptId}`}>
            <h4>
              <code>{approval.toolName}</code>{" "}
              <span className={`answer answer--${describeAnswer(approval.answer).replace(/ /g, "-")}`}>{describeAnswer(approval.answer)}</span>
            </h4>
            <p className="muted">
              approval <code>{approval.interruptId}</code> for call <code>{approval.toolCallId}</code>
            </p>
            <KeptValue value={approval.arguments} label={`Arguments asked for ${approval.interruptId}`} />
            {approval.answer ? <RunLink runId={approval.answer.runId} threadId={record.threadId} label="answered in run" /> : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}
