import { useEffect, useState } from "react";
import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import { getRecord } from "./api.ts";
import { describeEnd, formatMs, formatTime, formatUsage } from "./format.ts";
import { ApprovalsSection } from "./sections/approvals-section.tsx";
import { EventsSection } from "./sections/events-section.tsx";
import { InputSection } from "./sections/input-section.tsx";
import { ModelCallsSection } from "./sections/model-calls-section.tsx";
import { OutcomeSection } from "./sections/outcome-section.tsx";
import { ReportsSection } from "./sections/reports-section.tsx";
import { StartSection } from "./sections/start-section.tsx";
import { SurfacesSection } from "./sections/surfaces-section.tsx";
import { ToolCallsSection } from "./sections/tool-calls-section.tsx";

/** One run's timeline: what started it, what the agent was given and did, what the browser said, what was sent. */
export function RunView({ record, limit }: { record: RunRecordDocument; limit?: number | undefined }) {
  const nextRecords = useNextRecords(record);
  const ended = record.finishedAt ? Date.parse(record.finishedAt) - Date.parse(record.createdAt) : undefined;
  return (
    <article className="run" aria-labelledby="run-heading">
      <header className="run__header">
        <h2 id="run-heading">
          Run <code>{record.runId}</code>
        </h2>
        <p className={`status status--${record.error ? "error" : record.status}`}>{describeEnd(record)}</p>
      </header>
      {record.complete ? null : (
        <p className="banner" role="alert">
          <strong>Incomplete record:</strong>{" "}
          {record.incomplete
            ? `${record.incomplete.message} (${record.incomplete.code})`
            : record.status === "running"
              ? "the run is still going; reload to see more."
              : "it stops where the store did."}
        </p>
      )}
      <dl className="facts">
        <div>
          <dt>Agent</dt>
          <dd>{record.agentId}</dd>
        </div>
        <div>
          <dt>User</dt>
          <dd>{record.userId}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>
            <time dateTime={record.createdAt}>{formatTime(record.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Took</dt>
          <dd>{formatMs(ended)}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>{formatUsage(record.usage)}</dd>
        </div>
        {record.traceId ? (
          <div>
            <dt>Trace</dt>
            <dd>
              <code>{record.traceId}</code>
            </dd>
          </div>
        ) : null}
      </dl>
      <StartSection record={record} />
      <InputSection record={record} />
      <ModelCallsSection record={record} />
      <ToolCallsSection record={record} nextRecords={nextRecords} />
      <ApprovalsSection record={record} nextRecords={nextRecords} />
      <SurfacesSection record={record} />
      <ReportsSection record={record} />
      <OutcomeSection record={record} />
      <EventsSection record={record} limit={limit} />
    </article>
  );
}

/** The records of the runs that continue this one: their triggers hold the answers to its approvals. */
function useNextRecords(record: RunRecordDocument): RunRecordDocument[] {
  const [next, setNext] = useState<RunRecordDocument[]>([]);
  useEffect(() => {
    let current = true;
    void Promise.all(record.start.nextRunIds.map((runId) => getRecord(runId))).then((answers) => {
      if (current) setNext(answers.flatMap((answer) => (answer.state === "ok" ? [answer.value] : [])));
    });
    return () => {
      current = false;
    };
  }, [record]);
  return next;
}
