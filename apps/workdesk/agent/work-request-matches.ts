import type { WorkRequest } from "./work-requests.ts";

/**
 * Whether every word of a search appears in the request's id, title,
 * requester, status or priority, in any order and case: "badge reader",
 * "reader gate", "lee", "in progress".
 */
export function workRequestMatches(request: WorkRequest, query: string): boolean {
  const haystack = `${request.id} ${request.title} ${request.requester} ${request.status.replace("_", " ")} ${request.priority}`.toLowerCase();
  return searchWords(query).every((word) => haystack.includes(word));
}

function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .filter((word) => word.length > 0);
}
