import { useState } from "react";
import type { WorkRequest } from "../api.ts";
import { useDisplayed } from "../displayed.ts";
import { useData } from "../use-data.ts";
import { RequestTable } from "./request-table.tsx";
import type { ScreenProps } from "./screen-props.ts";

export function WorkRequestListScreen({ path, navigate }: ScreenProps) {
  const [status, setStatus] = useState("");
  const { data, error } = useData<{ requests: WorkRequest[] }>(`/api/workdesk/requests${status ? `?status=${status}` : ""}`);
  useDisplayed(path, !!data);
  return (
    <>
      <h1>Work request list</h1>
      <label className="filter">
        Status{" "}
        <select value={status} onChange={(event) => setStatus(event.target.value)}>
          <option value="">All</option>
          <option value="open">Open</option>
          <option value="in_progress">In progress</option>
          <option value="waiting_approval">Waiting approval</option>
          <option value="closed">Closed</option>
        </select>
      </label>
      {error ? <p role="alert">{error}</p> : null}
      {data ? (
        <RequestTable
          requests={data.requests}
          caption={`${data.requests.length} work requests`}
          onOpen={(id) => void navigate("MNU-3130", { payload: { requestId: id } })}
        />
      ) : (
        <p>Loading…</p>
      )}
    </>
  );
}
