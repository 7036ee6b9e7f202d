import { UNSTORED_EVENT_LIMIT } from "../store/index.ts";
import type { RunEnding } from "./port.ts";
import type { SequencedEvent } from "./sequence-events.ts";

/** What the hub holds of a run while it streams: its events not yet trimmed, its followers, and its writes to the store. */
export interface LiveRun {
  runId: string;
  threadId: string;
  /** Events with seq `base + 1` onwards; the ones before are stored and every follower has them. */
  events: SequencedEvent[];
  base: number;
  /** Highest seq known to be in the store. */
  persisted: number;
  /** The terminal event's seq while its end is being stored: followers stop short of it. */
  held: number;
  /** The terminal event is out; nothing more is emitted. */
  closed: boolean;
  /** How far each follower has read. */
  cursors: Set<{ seq: number }>;
  waiters: Set<() => void>;
  /** Followers are to be woken once the work that emitted is done. */
  tick: boolean;
  persistTimer: ReturnType<typeof setTimeout> | undefined;
  /** Page writes queued and not yet settled: while one is, a full batch waits for it instead of queueing a small one behind it. */
  queuedWrites: number;
  /** Consecutive failed page writes, for the retry pause. */
  failures: number;
  writing: Promise<void>;
  /** How the run ended, while the store has not taken it. */
  ending: RunEnding | undefined;
}

/** A run's state as the hub opens it, with the events the store already has. */
export function openLiveRun(runId: string, threadId: string, stored: SequencedEvent[]): LiveRun {
  return {
    runId,
    threadId,
    events: [...stored],
    base: 0,
    persisted: stored.at(-1)?.seq ?? 0,
    held: Infinity,
    closed: false,
    cursors: new Set(),
    waiters: new Set(),
    tick: false,
    persistTimer: undefined,
    queuedWrites: 0,
    failures: 0,
    writing: Promise.resolve(),
    ending: undefined,
  };
}

export const lastSeq = (run: LiveRun) => run.base + run.events.length;

/** What followers may have: never past the held terminal event, never too far past the store. */
export const sendable = (run: LiveRun) => Math.min(lastSeq(run), run.held - 1, run.persisted + UNSTORED_EVENT_LIMIT);

/** The events the store does not have yet. */
export const unstored = (run: LiveRun) => run.events.slice(run.persisted - run.base);
