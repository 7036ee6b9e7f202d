import type { RecordUpstreamEvents } from "@tether-agent/tether/protocol";
import { KeptValue } from "../kept-value.tsx";
import { plural } from "../format.ts";

/** What an upstream agent sent in one step, as received: each event openable, the ones Tether set aside saying why. */
export function UpstreamEvents({ upstream, step }: { upstream: RecordUpstreamEvents; step: number }) {
  const setAside = upstream.events.filter((entry) => entry.ignored !== undefined).length + (upstream.leftOut?.ignored ?? 0);
  return (
    <details className="upstream-events">
      <summary>
        Upstream events as received: {upstream.received}
        {setAside > 0 ? `, ${setAside} set aside` : ""}
        {upstream.leftOut ? ` (${plural(upstream.leftOut.count, "event")} past the record's caps not kept)` : ""}
      </summary>
      <ol>
        {upstream.events.map((entry, index) => (
          <li key={index}>
            <details>
              <summary>
                <code>{entry.type}</code>
                {entry.ignored !== undefined ? <span className="muted"> · set aside: {entry.ignored}</span> : null}
              </summary>
              <KeptValue value={entry.event} label={`Upstream event ${index + 1} of call ${step}`} />
            </details>
          </li>
        ))}
      </ol>
    </details>
  );
}
