import { keptText, type RunRecordDocument } from "@tether-agent/tether/protocol";
import { KeptValue } from "../kept-value.tsx";
import { formatMs, formatUsage, plural } from "../format.ts";
import { Section } from "./section.tsx";
import { UpstreamEvents } from "./upstream-events.tsx";

/** Each call to the model: which model, what it was given, how fast it answered, and what it said and called (an upstream agent's events too). */
export function ModelCallsSection({ record }: { record: RunRecordDocument }) {
  return (
    <Section id="model-calls" title="Model calls" count={record.modelCalls.length}>
      {record.modelCalls.length === 0 ? <p className="muted">No model call.</p> : null}
      <ol className="cards">
        {record.modelCalls.map((call) => (
          <li key={call.step} className="card" aria-label={`Model call ${call.step}`}>
            <h4>
              Call {call.step} · {call.model.provider} <code>{call.model.modelId}</code>
            </h4>
            <dl className="facts facts--small">
              <div>
                <dt>Given</dt>
                <dd>
                  {plural(call.messageCount, "message")}, {plural(call.toolCount, "tool")}
                </dd>
              </div>
              <div>
                <dt>First token</dt>
                <dd>{formatMs(call.firstTokenMs)}</dd>
              </div>
              <div>
                <dt>Total</dt>
                <dd>{formatMs(call.durationMs)}</dd>
              </div>
              <div>
                <dt>Tokens</dt>
                <dd>{formatUsage(call.usage)}</dd>
              </div>
              {call.finishReason ? (
                <div>
                  <dt>Finish</dt>
                  <dd>{call.finishReason}</dd>
                </div>
              ) : null}
            </dl>
            {keptText(call.text).text ? <KeptValue value={call.text} label={`Text of call ${call.step}`} /> : null}
            {call.toolCalls.length > 0 ? (
              <p>
                Called:{" "}
                {call.toolCalls.map((toolCall, index) => (
                  <span key={toolCall.toolCallId}>
                    {index > 0 ? ", " : null}
                    <code>{toolCall.toolName}</code>
                  </span>
                ))}
              </p>
            ) : null}
            {call.error ? (
              <p className="error-line">
                <code>{call.error.code}</code>: {call.error.message}
              </p>
            ) : null}
            {call.error?.provider ? (
              <p className="error-line">
                The provider answered {call.error.provider.statusCode ? `HTTP ${call.error.provider.statusCode}` : "an error"}
                {call.error.provider.failure ? ` (${call.error.provider.failure})` : ""}; its own words are in the server&apos;s log.
              </p>
            ) : null}
            {call.upstream ? <UpstreamEvents upstream={call.upstream} step={call.step} /> : null}
          </li>
        ))}
      </ol>
    </Section>
  );
}
