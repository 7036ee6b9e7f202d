import type { RecordSurfaceAttempt, RunRecordDocument } from "@tether-agent/tether/protocol";
import { KeptValue } from "../kept-value.tsx";
import { Section } from "./section.tsx";

/** Each generated surface: every validation attempt with its verdict and errors, then the version the client was left with. */
export function SurfacesSection({ record }: { record: RunRecordDocument }) {
  const attempts = new Map<string, RecordSurfaceAttempt[]>();
  for (const attempt of record.modelCalls.flatMap((call) => call.surfaces)) {
    attempts.set(attempt.surfaceId, [...(attempts.get(attempt.surfaceId) ?? []), attempt]);
  }
  const finals = record.output.surfaces;
  const ids = [...new Set([...attempts.keys(), ...finals.map((surface) => surface.surfaceId ?? surface.messageId)])];
  if (ids.length === 0) return null;
  return (
    <Section id="surfaces" title="Surfaces" count={ids.length}>
      <ul className="cards">
        {ids.map((surfaceId) => {
          const final = finals.find((surface) => (surface.surfaceId ?? surface.messageId) === surfaceId);
          return (
            <li key={surfaceId} className="card" aria-label={`Surface ${surfaceId}`}>
              <h4>
                <code>{surfaceId}</code>
                {final ? <span className={`verdict verdict--${final.status}`}>{final.status}</span> : null}
              </h4>
              <ol className="attempts" aria-label="Validation attempts">
                {(attempts.get(surfaceId) ?? []).map((attempt) => (
                  <li key={`${attempt.toolCallId}:${attempt.attempt}`}>
                    Attempt {attempt.attempt} of {attempt.maxAttempts}: <span className={`verdict verdict--${attempt.verdict}`}>{attempt.verdict}</span>
                    {attempt.errors.length > 0 ? (
                      <ul className="error-lines">
                        {attempt.errors.map((error, index) => (
                          <li key={index} className="error-line">
                            <code>{error.code}</code> at <code>{error.path || "/"}</code>: {error.message}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                ))}
              </ol>
              {final ? (
                <details>
                  <summary>Final version sent (message {final.messageId})</summary>
                  <KeptValue value={final.content} label={`Final version of ${surfaceId}`} />
                </details>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
