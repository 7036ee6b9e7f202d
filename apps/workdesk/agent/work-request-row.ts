import type { WorkRequest, WorkRequestStatus } from "./work-requests.ts";

/** A work request as both databases keep it (`workdesk_requests`). */
export interface RequestRow {
  id: string;
  org_scope: string;
  title: string;
  status: string;
  priority: string;
  requester: string;
  created_at: string;
  updated_at: string;
  resolution: string | null;
  closed_at: string | null;
}

/** A stored row as the app's work request. */
export function toWorkRequest(row: RequestRow): WorkRequest {
  return {
    id: row.id,
    orgScope: row.org_scope,
    title: row.title,
    status: row.status as WorkRequestStatus,
    priority: row.priority as WorkRequest["priority"],
    requester: row.requester,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.resolution !== null ? { resolution: row.resolution } : {}),
    ...(row.closed_at !== null ? { closedAt: row.closed_at } : {}),
  };
}
