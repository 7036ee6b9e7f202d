import type { WorkRequest } from "../api.ts";
import { PriorityBadge, StatusBadge } from "./status-badge.tsx";

export function RequestTable({ requests, caption, onOpen }: { requests: WorkRequest[]; caption: string; onOpen(id: string): void }) {
  return (
    <table className="requests">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Request</th>
          <th scope="col">Title</th>
          <th scope="col">Status</th>
          <th scope="col">Priority</th>
          <th scope="col">Requester</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {requests.map((request) => (
          <tr key={request.id}>
            <td>
              <a href={`/work-requests/${request.id}`} onClick={(event) => (event.preventDefault(), onOpen(request.id))}>
                {request.id}
              </a>
            </td>
            <td>{request.title}</td>
            <td>
              <StatusBadge status={request.status} />
            </td>
            <td>
              <PriorityBadge priority={request.priority} />
            </td>
            <td>{request.requester}</td>
            <td>{new Date(request.updatedAt).toLocaleDateString("en-GB")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
