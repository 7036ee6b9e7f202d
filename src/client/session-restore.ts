import type { SessionState } from "./agent-session.ts";
import type { CallJournal } from "./call-journal.ts";
import { errorJson } from "./errors.ts";
import type { OutcomeReporter } from "./outcome-reporter.ts";
import { owedCalls } from "./owed-calls.ts";
import type { ThreadFollower } from "./thread-follower.ts";

export interface SessionRestore {
  /** Loads the thread, follows its active runs without acting on them, then answers what this tab still owes. */
  restore(): Promise<void>;
  /** The thread's latest run as last loaded: after a reload, what a surface's renderer error is reported on when its own run is unknown. */
  lastRunId(): string | undefined;
}

export interface SessionRestoreOptions {
  /** Shows the stored thread and follows its runs. */
  follower: ThreadFollower;
  /** Which runs this tab started, so which calls it owes. */
  journal: CallJournal;
  /** Answers the owed calls, and holds the outcomes the stored thread replaces. */
  reporter: OutcomeReporter;
  /** Where a failed load shows. */
  setState(patch: Partial<SessionState>): void;
}

/** How a session catches up with a thread that moved on without it: after a reload, in another window. */
export function createSessionRestore(options: SessionRestoreOptions): SessionRestore {
  const { reporter, setState } = options;
  let lastRunId: string | undefined;

  const restore = async (): Promise<void> => {
    reporter.clearHeld(); // the stored thread replaces what this page held
    try {
      const followed = await options.follower.follow();
      if (!followed) return;
      const { thread, latest, last } = followed;
      lastRunId = thread.runs?.at(-1)?.runId;
      // Calls this tab started before the reload are answered by this tab, and only by it.
      const owed = latest ? owedCalls(latest, options.journal.owns) : [];
      if (owed.length > 0)
        await reporter.report(
          last?.runId ?? owed[0]!.runId,
          owed.map((call) => call.toolCallId),
        );
    } catch (error) {
      setState({ error: errorJson(error) });
    }
  };

  return { restore, lastRunId: () => lastRunId };
}
