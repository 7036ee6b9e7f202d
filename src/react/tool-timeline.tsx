import { useSessionState } from "./use-session-state.ts";
import { useTetherSession } from "./use-tether-session.ts";
import { ToolActivityItem } from "./tool-activity-item.tsx";

/**
 * Every tool call of the nearest `TetherProvider`'s session, in order, and
 * how each ended: for a layout that shows the tools apart from the
 * conversation (which already shows them after each answer).
 */
export function ToolTimeline({ title = "Tool timeline" }: { title?: string }) {
  const { activities } = useSessionState(useTetherSession());
  return (
    <ol className="tether-timeline" aria-label={title}>
      {activities.map((activity) => (
        <ToolActivityItem key={activity.toolCallId} activity={activity} />
      ))}
    </ol>
  );
}
