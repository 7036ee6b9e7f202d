import { useToolRenderer, type ServerToolCallView } from "@tether-agent/tether/react";
import type { WorkRequest } from "./api.ts";
import { StatusBadge } from "./screens/status-badge.tsx";

type SearchArgs = { query?: string; status?: WorkRequest["status"] };

/** What the server tool `searchWorkRequests` returns (apps/workdesk/agent/tools.ts). */
interface SearchOutput {
  query: string;
  total: number;
  requests: Array<Pick<WorkRequest, "id" | "title" | "status" | "priority">>;
}

/** The record search, a server tool, drawn in the conversation: what is being searched for, then what was found. */
export function SearchResultsView() {
  useToolRenderer<SearchArgs, SearchOutput>("searchWorkRequests", (call) => <SearchResults call={call} />);
  return null;
}

function SearchResults({ call: { status, partialArgs, result, error } }: { call: ServerToolCallView<SearchArgs, SearchOutput> }) {
  const what = [partialArgs?.query ? `“${partialArgs.query}”` : "", partialArgs?.status ? partialArgs.status.replaceAll("_", " ") : ""]
    .filter(Boolean)
    .join(", ");
  const title = `Work requests${what ? ` matching ${what}` : ""}`;
  if (status === "failed") return <p className="search-results search-results--failed">Couldn't search the work requests: {error}</p>;
  if (status !== "done" || !result) {
    return (
      <p className="search-results search-results--searching" role="status">
        Searching the work requests{what ? ` for ${what}` : ""}…
      </p>
    );
  }
  return (
    <section className="search-results" aria-label={title}>
      <h3 className="search-results__title">
        {title}: {result.total === result.requests.length ? result.total : `${result.requests.length} of ${result.total}`}
      </h3>
      {result.requests.length === 0 ? (
        <p className="search-results__none">None found.</p>
      ) : (
        <ul className="search-results__list">
          {result.requests.map((request) => (
            <li key={request.id} className="search-results__row">
              <span className="search-results__id">{request.id}</span> <span className="search-results__request">{request.title}</span>{" "}
              <StatusBadge status={request.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
