import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import { KeptValue } from "../kept-value.tsx";
import { formatTime } from "../format.ts";
import { RunLink, Section } from "./section.tsx";

const KIND_WORDS: Record<RunRecordDocument["reports"][number]["kind"], string> = {
  "tool-outcome": "Tool outcome",
  "renderer-error": "Renderer error",
  "ui-action": "Click",
};

/** What the browser reported back: tool outcomes, renderer errors, clicks, and the run each led to. */
export function ReportsSection({ record }: { record: RunRecordDocument }) {
  return (
    <Section id="reports" title="Browser reports" count={record.reports.length}>
      {record.reports.length === 0 ? <p className="muted">The browser reported nothing for this run.</p> : null}
      <ol className="cards">
        {record.reports.map((report, index) => (
          <li key={index} className={`card report report--${report.kind}`} aria-label={KIND_WORDS[report.kind] ?? report.kind}>
            <h4>
              {KIND_WORDS[report.kind] ?? report.kind}
              {report.toolName ? (
                <>
                  {" "}
                  of <code>{report.toolName}</code>
                </>
              ) : null}
              {report.surfaceId ? (
                <>
                  {" "}
                  on <code>{report.surfaceId}</code>
                </>
              ) : null}
            </h4>
            <p className="muted">
              <time dateTime={report.receivedAt}>{formatTime(report.receivedAt)}</time>
              {report.toolCallId ? (
                <>
                  {" "}
                  · call <code>{report.toolCallId}</code>
                </>
              ) : null}
            </p>
            <KeptValue value={report.body} label={`Report ${index + 1}`} />
            {report.ledToRunId ? <RunLink runId={report.ledToRunId} threadId={record.threadId} /> : null}
          </li>
        ))}
      </ol>
    </Section>
  );
}
