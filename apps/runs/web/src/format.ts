import type { RunRecordDocument } from "@tether-agent/tether/protocol";

/** A moment as the reader's clock shows it, with seconds. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatUsage(usage: RunRecordDocument["usage"]): string {
  if (!usage) return "—";
  return `${usage.inputTokens ?? "?"} in · ${usage.outputTokens ?? "?"} out`;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** How a run ended, in a few words. */
export function describeEnd(run: { status: RunRecordDocument["status"]; outcome?: RunRecordDocument["outcome"]; error?: { code: string } }): string {
  if (run.error) return `error: ${run.error.code}`;
  if (run.status === "running") return "running";
  if (run.outcome?.type === "interrupt") return "waiting for approval";
  if (run.outcome?.pendingToolCallIds?.length) return "waiting for the browser";
  return run.outcome?.type ?? run.status;
}
