import type { ToolOutcome } from "../../protocol/index.ts";

export interface JournalEntry {
  runId: string;
  toolName: string;
  /** `started` before the executor is called, `finished` with its outcome: a reload between the two is an unknown outcome. */
  state: "started" | "finished";
  outcome?: ToolOutcome;
  /** The outcome was sent to the server (in a tool message or a report). */
  reported?: boolean;
}

/**
 * What this tab has executed, and which runs it started, per thread, kept in
 * `sessionStorage`: it survives a reload of the tab, and a second window has
 * its own, so it never acts on runs it did not start.
 */
export interface CallJournal {
  get(toolCallId: string): JournalEntry | undefined;
  start(toolCallId: string, entry: Pick<JournalEntry, "runId" | "toolName">): void;
  finish(toolCallId: string, outcome: ToolOutcome): void;
  markReported(toolCallIds: string[]): void;
  ownRun(runId: string): void;
  owns(runId: string): boolean;
}

interface Saved {
  calls: Record<string, JournalEntry>;
  runs: string[];
}

export function createCallJournal(threadId: string, storage: Storage | undefined = defaultStorage()): CallJournal {
  const key = `tether:journal:${threadId}`;
  let saved: Saved = { calls: {}, runs: [] };
  try {
    const raw = storage?.getItem(key);
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    if (isSaved(parsed)) saved = parsed;
  } catch {
    // An unreadable journal starts empty; the worst case is an outcome reported as unknown.
  }
  const save = () => {
    try {
      storage?.setItem(key, JSON.stringify(saved));
    } catch {
      // Storage full or denied: the in-memory journal still stops double execution in this page.
    }
  };
  return {
    get: (toolCallId) => saved.calls[toolCallId],
    start(toolCallId, entry) {
      saved.calls[toolCallId] = { ...entry, state: "started" };
      save();
    },
    finish(toolCallId, outcome) {
      const entry = saved.calls[toolCallId];
      if (!entry) return;
      saved.calls[toolCallId] = { ...entry, state: "finished", outcome };
      save();
    },
    markReported(toolCallIds) {
      for (const toolCallId of toolCallIds) {
        const entry = saved.calls[toolCallId];
        if (entry) entry.reported = true;
      }
      save();
    },
    ownRun(runId) {
      if (!saved.runs.includes(runId)) saved.runs.push(runId);
      save();
    },
    owns: (runId) => saved.runs.includes(runId),
  };
}

function isSaved(value: unknown): value is Saved {
  const candidate = value as Partial<Saved> | null;
  return (
    typeof candidate === "object" && candidate !== null && typeof candidate.calls === "object" && candidate.calls !== null && Array.isArray(candidate.runs)
  );
}

function defaultStorage(): Storage | undefined {
  try {
    return typeof sessionStorage === "undefined" ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}
