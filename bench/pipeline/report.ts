import type { RunResult } from "./client.ts";

/** A whole number of at least 1 from the environment (`100_000` allowed), or `fallback` when unset or empty. */
export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw.replace(/_/g, ""));
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}".`);
  return value;
}

/** Tether's events/s against the bare writer's and the minimal server's. */
export const TARGETS = { bare: 0.5, minimal: 0.9 };

export interface Summary {
  name: string;
  description: string;
  runs: RunResult[];
  eventsPerSecond: number[];
  median: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function summarize(name: string, description: string, runs: RunResult[]): Summary {
  const eventsPerSecond = runs.map((run) => run.events / (run.ms / 1000));
  return { name, description, runs, eventsPerSecond, median: median(eventsPerSecond) };
}

const count = (value: number) => Math.round(value).toLocaleString("en-US");

export function table(summaries: Summary[]): string {
  const rows = [
    ["contender", "events/s (median)", "min", "max", "ms (median)", "MB/s (median)", "events/run"],
    ...summaries.map((summary) => {
      const ms = median(summary.runs.map((run) => run.ms));
      const mbps = median(summary.runs.map((run) => run.bytes / 1e6 / (run.ms / 1000)));
      return [
        summary.name,
        count(summary.median),
        count(Math.min(...summary.eventsPerSecond)),
        count(Math.max(...summary.eventsPerSecond)),
        ms.toFixed(0),
        mbps.toFixed(1),
        count(median(summary.runs.map((run) => run.events))),
      ];
    }),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  return [line(rows[0]!), widths.map((width) => "-".repeat(width)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

export function ratioLine(label: string, ratio: number, target: number): string {
  return `${label.padEnd(16)} ${ratio.toFixed(3)}×   target ≥ ${target.toFixed(2)}×   ${ratio >= target ? "MET" : "MISSED"}`;
}
