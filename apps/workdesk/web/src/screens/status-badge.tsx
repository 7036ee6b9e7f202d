import type { WorkRequest } from "../api.ts";

const LABELS: Record<WorkRequest["status"], string> = { open: "Open", in_progress: "In progress", waiting_approval: "Waiting approval", closed: "Closed" };

export function StatusBadge({ status }: { status: WorkRequest["status"] }) {
  return <span className={`badge badge--${status}`}>{LABELS[status]}</span>;
}

export function PriorityBadge({ priority }: { priority: WorkRequest["priority"] }) {
  return <span className={`priority priority--${priority}`}>{priority}</span>;
}
