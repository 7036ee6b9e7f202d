import type { WorkRequest } from "../api.ts";
import { useDisplayed } from "../displayed.ts";
import { useData } from "../use-data.ts";
import { RequestTable } from "./request-table.tsx";
import type { ScreenProps } from "./screen-props.ts";

export function ApprovalsScreen({ path, navigate }: ScreenProps) {
  const { data, error } = useData<{ requests: WorkRequest[] }>("/api/workdesk/approvals");
  useDisplayed(path, !!data);
  return (
    <>
      <h1>Approvals</h1>
      {error ? <p role="alert">{error}</p> : null}
      {data ? (
        <RequestTable
          requests={data.requests}
          caption={`${data.requests.length} requests waiting for your approval`}
          onOpen={(id) => void navigate("MNU-3130", { payload: { requestId: id } })}
        />
      ) : null}
    </>
  );
}
