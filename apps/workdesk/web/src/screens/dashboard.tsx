import type { WorkRequest } from "../api.ts";
import { useDisplayed } from "../displayed.ts";
import { useData } from "../use-data.ts";
import { RequestTable } from "./request-table.tsx";
import type { ScreenProps } from "./screen-props.ts";

interface Dashboard {
  orgScope: string;
  counts: Record<WorkRequest["status"], number>;
  highPriorityOpen: WorkRequest[];
}

export function DashboardScreen({ path, navigate }: ScreenProps) {
  const { data, error } = useData<Dashboard>("/api/workdesk/dashboard");
  useDisplayed(path, !!data);
  return (
    <>
      <h1>Dashboard</h1>
      {error ? <p role="alert">{error}</p> : null}
      {data ? (
        <>
          <ul className="tiles" aria-label="Work requests by status">
            <li className="tile">
              <strong>{data.counts.open}</strong> open
            </li>
            <li className="tile">
              <strong>{data.counts.in_progress}</strong> in progress
            </li>
            <li className="tile">
              <strong>{data.counts.waiting_approval}</strong> waiting approval
            </li>
            <li className="tile">
              <strong>{data.counts.closed}</strong> closed
            </li>
          </ul>
          <RequestTable
            requests={data.highPriorityOpen}
            caption={`High priority, not closed, in ${data.orgScope}`}
            onOpen={(id) => void navigate("MNU-3130", { payload: { requestId: id } })}
          />
        </>
      ) : null}
    </>
  );
}
