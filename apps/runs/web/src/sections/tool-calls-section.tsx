import { browserOutcomeOf, type RecordToolCall, type RunRecordDocument } from "@tether-agent/tether/protocol";
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
export function ToolCallsSection({ record, nextRecords }: { record: RunRecordDocument; nextRecords: RunRecordDocument[] }) {
  const calls = record.modelCalls.flatMap((call) => call.toolCalls.map((toolCall) => ({ step: call.step, toolCall })));
  return (
    <Section id="tool-calls" title="Tool calls" count={calls.length}>
      {calls.length === 0 ? <p className="muted">No tool call.</p> : null}
      <ol className="cards">
        {calls.map(({ step, toolCall }) => {
          const outcome = toolCall.location === "browser" ? browserOutcomeOf(toolCall.toolCallId, record, nextRecords) : undefined;
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
                outcome?.from === "report" ? (
                  <>
                    <h5>Outcome the browser reported</h5>
                    <KeptValue value={outcome.body} label={`Outcome of ${toolCall.toolCallId}`} />
                    {outcome.ledToRunId ? <RunLink runId={outcome.ledToRunId} threadId={record.threadId} /> : null}
                  </>
                ) : outcome ? (
                  <>
                    <h5>Outcome the browser sent with the next run</h5>
                    <KeptValue value={outcome.content} label={`Outcome of ${toolCall.toolCallId}`} />
                    <RunLink runId={outcome.runId} threadId={record.threadId} />
                  </>
                ) : (
                  <p className="muted">No outcome yet: the browser has neither reported it nor sent it with a next run.</p>
                )
              ) : null}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
