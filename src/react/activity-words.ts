import type { ToolActivity } from "../client/index.ts";

/** What the outcome reasons the library and the demos use mean, for a person. */
const REASONS: Record<string, string> = {
  access_denied: "you don't have access",
  blocked_by_mode: "not while the assistant covers the screen",
  popup_blocked: "the browser blocked the new tab",
  page_reloaded: "the page reloaded before it finished",
  timeout: "it took too long",
  invalid_arguments: "the request was not valid",
  executor_failed: "it failed in the browser",
  no_result_reported: "no result came back",
  not_found: "it was not found",
};

/** A tool's name as words: `lookupScreens` → "Lookup screens", `save_to_cookbook` → "Save to cookbook". */
export function toolLabel(toolName: string): string {
  const words = toolName
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One timeline line in a person's words: what was done, or why not
 * ("Couldn't navigate to screen: you don't have access", "Not done: you
 * rejected it"). The codes stay in the line's details.
 */
export function activityWords(activity: ToolActivity): string {
  const label = toolLabel(activity.toolName);
  const reason = activity.reason ? (REASONS[activity.reason] ?? activity.reason.replaceAll("_", " ")) : undefined;
  const why = activity.message ?? reason;
  switch (activity.status) {
    case "calling":
    case "running":
      return `${label}…`;
    case "awaiting":
      return `Waiting for your approval: ${label}`;
    case "succeeded":
    case "done":
      return activity.message ? `Done: ${label}. ${activity.message.charAt(0).toUpperCase()}${activity.message.slice(1)}` : `Done: ${label}`;
    case "failed":
    case "error":
      return `Couldn't ${label.charAt(0).toLowerCase()}${label.slice(1)}${why ? `: ${why}` : ""}`;
    case "blocked":
      return `Not done here: ${why ?? label}`;
    case "rejected":
      return "Not done: you rejected it";
    case "cancelled":
      return `Not done: ${activity.message ?? "it was cancelled"}`;
    case "unknown":
      return `Not known whether it happened${why ? `: ${why}` : ""}`;
  }
}
