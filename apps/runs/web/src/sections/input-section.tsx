import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import { KeptValue } from "../kept-value.tsx";
import { plural } from "../format.ts";
import { Section } from "./section.tsx";

/** What the agent was given: the history, the tools and what the allow-list decided, state and context. */
export function InputSection({ record }: { record: RunRecordDocument }) {
  const { input } = record;
  return (
    <Section id="input" title="Given to the agent">
      <p>
        {plural(input.messageCount, "message")}, {input.newMessageIds.length} new in this run
        {input.surfaceCatalogs.length > 0 ? <> · surface catalogs: {input.surfaceCatalogs.join(", ")}</> : null}
      </p>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">Tools considered for the run</caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Runs in</th>
              <th scope="col">Decision</th>
            </tr>
          </thead>
          <tbody>
            {input.tools.map((tool) => (
              <tr key={`${tool.location}:${tool.name}`}>
                <td>
                  <code>{tool.name}</code>
                </td>
                <td>
                  <span className={`where where--${tool.location}`}>{tool.location}</span>
                </td>
                <td>
                  {tool.decision}
                  {tool.reason ? (
                    <>
                      {" "}
                      — <code>{tool.reason.code}</code>: {tool.reason.message}
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <details>
        <summary>Messages, state, context and forwarded props</summary>
        <h4>Messages</h4>
        <KeptValue value={input.messages} label="Messages" />
        <h4>State</h4>
        <KeptValue value={input.state} label="State" />
        <h4>Context</h4>
        <KeptValue value={input.context} label="Context" />
        <h4>Forwarded props</h4>
        <KeptValue value={input.forwardedProps} label="Forwarded props" />
      </details>
    </Section>
  );
}
