import type { ResumeEntry } from "@ag-ui/core";

/** Whether two answers to an interrupt say the same: the same status and payload, whatever order its fields came in. */
export function sameAnswer(a: ResumeEntry, b: ResumeEntry): boolean {
  return a.status === b.status && canonical(a.payload) === canonical(b.payload);
}

/** JSON with keys sorted: the same answer compares equal whatever order its fields came in. */
function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, inner: unknown) =>
      inner && typeof inner === "object" && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b))) : inner,
    ) ?? "null"
  );
}
