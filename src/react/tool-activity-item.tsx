import type { ToolActivity } from "../client/index.ts";
import { activityWords } from "./activity-words.ts";

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

/**
 * One line of the tool timeline: what happened in words (the tool's own,
 * from its `describe`, or the library's), then a details view with the
 * tool's name, where it ran, its status, stage and reason.
 */
export function ToolActivityItem({ activity, words }: { activity: ToolActivity; words?: string | undefined }) {
  const detail = [activity.stage, activity.reason].filter(Boolean).join(", ");
  return (
    <li className={`tether-activity tether-activity--${activity.status}`} data-status={activity.status} data-tool-call-id={activity.toolCallId}>
      <span className="tether-activity__words">{words ?? activityWords(activity)}</span>
      <details className="tether-activity__details">
        <summary>Details</summary>
        <span className="tether-activity__tool">{activity.toolName}</span>{" "}
        <span className="tether-activity__where">{activity.location === "browser" ? "in your browser" : "on the server"}</span>{" "}
        <span className="tether-activity__status">
          {LABELS[activity.status]}
          {detail ? ` · ${detail}` : ""}
        </span>
        {activity.message ? <span className="tether-activity__message">{activity.message}</span> : null}
      </details>
    </li>
  );
}
