import { useState } from "react";
import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import { getRecord } from "../api.ts";
import { KeptValue } from "../kept-value.tsx";
import { Section } from "./section.tsx";

type Events = RunRecordDocument["output"]["events"];

/** The events the client was sent, in order, a page at a time (`output.next` says where the next page starts). */
export function EventsSection({ record, limit }: { record: RunRecordDocument; limit?: number | undefined }) {
  const [events, setEvents] = useState<Events>(record.output.events);
  const [next, setNext] = useState(record.output.next);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const loadMore = async () => {
    if (!next) return;
    setLoading(true);
    setError(undefined);
    const page = await getRecord(record.runId, { afterSeq: next.afterSeq, limit });
    setLoading(false);
    if (page.state !== "ok") {
      setError(page.state === "failed" ? page.message : "The next page could not be read (signed out, or the run is gone).");
      return;
    }
    setEvents((shown) => [...shown, ...page.value.output.events.filter((event) => event.seq > (shown.at(-1)?.seq ?? 0))]);
    setNext(page.value.output.next);
  };
  return (
    <Section id="events" title="Events as sent" count={record.output.eventCount}>
      <p className="muted">
        {events.length} of {record.output.eventCount} shown · last sequence number {record.output.lastSeq}
      </p>
      <div className="table-scroll">
        <table className="events">
          <caption className="visually-hidden">Events as sent, by sequence number</caption>
          <thead>
            <tr>
              <th scope="col">Seq</th>
              <th scope="col">Type</th>
              <th scope="col">Ids</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.seq}>
                <td>{event.seq}</td>
                <td>
                  <details>
                    <summary>
                      <code>{event.type}</code>
                    </summary>
                    <KeptValue value={event.event} label={`Event ${event.seq}`} />
                  </details>
                </td>
                <td>
                  {event.messageId ? (
                    <span>
                      message <code>{event.messageId}</code>
                    </span>
                  ) : null}
                  {event.toolCallId ? (
                    <span>
                      {" "}
                      tool call <code>{event.toolCallId}</code>
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {next ? (
        <button type="button" onClick={() => void loadMore()} disabled={loading}>
          {loading ? "Loading…" : "Load more events"}
        </button>
      ) : null}
    </Section>
  );
}
