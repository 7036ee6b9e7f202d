import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import { describeEnd } from "../format.ts";
import { Section } from "./section.tsx";

/** How the run ended, as its last event said. */
export function OutcomeSection({ record }: { record: RunRecordDocument }) {
  const { outcome, error } = record;
  return (
    <Section id="outcome" title="Outcome">
      <p>
        <strong>{describeEnd(record)}</strong>
        {error ? (
          <>
            {" "}
            — <code>{error.code}</code>: {error.message}
          </>
        ) : null}
      </p>
      {outcome?.pendingToolCallIds?.length ? (
        <p>
          Left for the browser: <code>{outcome.pendingToolCallIds.join(", ")}</code>
        </p>
      ) : null}
      {outcome?.interruptIds?.length ? (
        <p>
          Waiting for approval: <code>{outcome.interruptIds.join(", ")}</code>
        </p>
      ) : null}
      {!outcome && !error ? <p className="muted">No outcome recorded{record.status === "running" ? " yet" : ""}.</p> : null}
    </Section>
  );
}
