import type { WorkRequest } from "../api.ts";
import { useDisplayed } from "../displayed.ts";
import { useData } from "../use-data.ts";
import type { ScreenProps } from "./screen-props.ts";
import { PriorityBadge, StatusBadge } from "./status-badge.tsx";

export function WorkRequestDetailScreen({ path, params, navigate }: ScreenProps) {
  const { data, error } = useData<{ request: WorkRequest }>(`/api/workdesk/requests/${encodeURIComponent(params.requestId ?? "")}`);
  useDisplayed(path, !!data || !!error);
  const request = data?.request;
  return (
    <>
      <h1>Work request detail</h1>
      <p>
        <a href="/work-requests" onClick={(event) => (event.preventDefault(), void navigate("MNU-3120"))}>
          Back to the work request list
        </a>
      </p>
      {error ? <p role="alert">{error}</p> : null}
      {request ? (
        <article className="detail" aria-label={`Work request ${request.id}`}>
          <h2>
            {request.id}: {request.title}
          </h2>
          <dl>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={request.status} />
            </dd>
            <dt>Priority</dt>
            <dd>
              <PriorityBadge priority={request.priority} />
            </dd>
            <dt>Requester</dt>
            <dd>{request.requester}</dd>
            <dt>Organisation</dt>
            <dd>{request.orgScope}</dd>
            <dt>Created</dt>
            <dd>{new Date(request.createdAt).toLocaleString("en-GB")}</dd>
            {request.resolution ? (
              <>
                <dt>Resolution</dt>
                <dd>{request.resolution}</dd>
              </>
            ) : null}
          </dl>
        </article>
      ) : null}
    </>
  );
}
