import type { ReactNode } from "react";
import type { ToolCallView } from "@tether-agent/tether/react";

/** A tool call's line in the app's words: what it is doing, what it did, or that it did not. */
export function ToolChip({
  status,
  icon,
  doing,
  done,
  notDone,
}: {
  status: ToolCallView["status"];
  icon: string;
  doing: ReactNode;
  done: ReactNode;
  notDone: ReactNode;
}) {
  const settled = status === "succeeded" ? "done" : status === "calling" || status === "running" || status === "awaiting" ? "doing" : "not-done";
  return (
    <span className={`tool-chip tool-chip--${settled}`}>
      <span aria-hidden="true">{icon}</span> {settled === "done" ? done : settled === "doing" ? doing : notDone}
    </span>
  );
}
