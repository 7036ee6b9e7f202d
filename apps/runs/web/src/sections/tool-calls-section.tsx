import type { RecordToolCall, RunRecordDocument } from "tether/protocol";
import { KeptValue } from "../kept-value.tsx";
import { formatMs } from "../format.ts";
import { RunLink, Section } from "./section.tsx";

const STATUS_WORDS: Record<RecordToolCall["status"], string> = {
  result: "ran on the server",
  pending: "handed to the browser",
  approval: "waits for approval",
  refused: "refused",
  error: "failed",
};

/** Every tool call of the run: where it ran, its arguments, and what became of it (a browser call's outcome from its report). */
export function ToolCallsSection({ record }: { record: RunRecordDocument }) {
  const calls = record.modelCalls.flatMap((call) => call.toolCalls.map((toolCall) => ({ step: call.step, toolCall })));
  return (
    <Section id="tool-calls" title="Tool calls" count={calls.length}>
      {calls.length === 0 ? <p className="muted">No tool call.</p> : null}
      <ol className="cards">
        {calls.map(({ step, toolCall }) => {
          const report = record.reports.find((entry) => entry.kind === "tool-outcome" && entry.toolCallId === toolCall.toolCallId);
          return (
            <li key={toolCall.toolCallId} className="card" aria-label={`Tool call ${toolCall.toolName}`}>
              <h4>
                <code>{toolCall.toolName}</code> <span className={`where where--${toolCall.location}`}>{toolCall.location}</span>
              </h4>
              <p className="muted">
                call <code>{toolCall.toolCallId}</code> · model call {step} · {STATUS_WORDS[toolCall.status]}
                {toolCall.durationMs !== undefined ? ` in ${formatMs(toolCall.durationMs)}` : null}
                {toolCall.interruptId ? (
                  <>
                    {" "}
                    (approval <code>{toolCall.interruptId}</code>)
                  </>
                ) : null}
              </p>
              <h5>Arguments</h5>
              <KeptValue value={toolCall.arguments} label={`Arguments of ${toolCall.toolCallId}`} />
              {toolCall.result !== undefined ? (
                <>
                  <h5>Result</h5>
                  <KeptValue value={toolCall.result} label={`Result of ${toolCall.toolCallId}`} />
                </>
              ) : null}
              {toolCall.location === "browser" ? (
                report ? (
                  <>
                    <h5>Outcome the browser reported</h5>
                    <KeptValue value={report.body} label={`Outcome of ${toolCall.toolCallId}`} />
                    {report.ledToRunId ? <RunLink runId={report.ledToRunId} threadId={record.threadId} /> : null}
                  </>
                ) : (
                  <p className="muted">No outcome reported to this run (it may come with the next run's tool message).</p>
                )
              ) : null}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
