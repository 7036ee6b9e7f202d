import type { Message } from "@ag-ui/core";

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface Row {
  name: string;
  /** Measured round times, ms (wall clock). */
  ms: number[];
  /** This process's CPU time over each round (all threads: main, GC helpers, compilers), ms. */
  cpu: number[];
  /** Main-thread GC pauses during each round, ms. */
  gc: number[];
  events: number;
  bytes: number;
}

const count = (value: number) => Math.round(value).toLocaleString("en-US");

export function table(rows: Row[]): string {
  const cells = [
    ["contender", "MB", "events", "ms (median)", "min", "max", "events/s (median)", "MB/s", "cpu ms", "gc ms"],
    ...rows.map((row) => {
      const ms = median(row.ms);
      return [
        row.name,
        (row.bytes / 1e6).toFixed(2),
        count(row.events),
        ms.toFixed(0),
        Math.min(...row.ms).toFixed(0),
        Math.max(...row.ms).toFixed(0),
        count(row.events / (ms / 1000)),
        (row.bytes / 1e6 / (ms / 1000)).toFixed(1),
        median(row.cpu).toFixed(0),
        median(row.gc).toFixed(0),
      ];
    }),
  ];
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  return [line(cells[0]!), widths.map((width) => "-".repeat(width)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

/** A time ratio (lower is better) against its ceiling. */
export function ratioLine(label: string, ratio: number, ceiling?: number): string {
  const verdict = ceiling === undefined ? "(diagnostic, no target)" : `target ≤ ${ceiling.toFixed(2)}×   ${ratio <= ceiling ? "MET" : "MISSED"}`;
  return `${label.padEnd(28)} ${ratio.toFixed(3)}×   ${verdict}`;
}

/** What "the same final messages" means here: same ids, roles, content lengths, tool calls and argument lengths, in order. */
export function digest(messages: Message[]): string {
  return JSON.stringify(
    messages.map((message) => {
      const content = (message as { content?: unknown }).content;
      const toolCalls =
        message.role === "assistant" ? (message.toolCalls ?? []).map((call) => [call.id, call.function.name, call.function.arguments.length]) : undefined;
      return [
        message.id,
        message.role,
        typeof content === "string" ? content.length : JSON.stringify(content ?? null).length,
        toolCalls ?? null,
        message.role === "tool" ? message.toolCallId : null,
      ];
    }),
  );
}
