import type { ToolActivity } from "../client/index.ts";

const LABELS: Record<ToolActivity["status"], string> = {
  calling: "calling…",
  awaiting: "awaiting approval",
  running: "running…",
  succeeded: "succeeded",
  failed: "failed",
  blocked: "blocked",
  cancelled: "not done · cancelled",
  rejected: "not done · rejected",
  unknown: "unknown",
  done: "done",
  error: "error",
};

/** One line of the tool timeline: the tool, where it ran, and how it ended. */
export function ToolActivityItem({ activity }: { activity: ToolActivity }) {
  const detail = [activity.stage, activity.reason].filter(Boolean).join(", ");
  return (
    <li className={`tether-activity tether-activity--${activity.status}`} data-status={activity.status} data-tool-call-id={activity.toolCallId}>
      <span className="tether-activity__tool">{activity.toolName}</span>
      <span className="tether-activity__where">{activity.location === "browser" ? "in your browser" : "on the server"}</span>
      <span className="tether-activity__status">
        {LABELS[activity.status]}
        {detail ? ` · ${detail}` : ""}
      </span>
      {activity.message && activity.status !== "succeeded" ? <span className="tether-activity__message">{activity.message}</span> : null}
    </li>
  );
}
