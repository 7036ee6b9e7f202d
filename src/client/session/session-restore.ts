import type { SessionState } from "./session-types.ts";
import type { CallJournal } from "../tools/index.ts";
import { errorJson } from "../errors.ts";
import type { OutcomeReporter } from "./outcome-reporter.ts";
import { owedCalls } from "./owed-calls.ts";
import type { RunController } from "./run-controller.ts";
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
  /** Forgets the outcomes held for the next run: the stored thread replaces them. */
  outcomes: Pick<OutcomeReporter, "clearHeld">;
  /** Answers the owed calls (the run controller), continuing the run for follow-ups. */
  runs: Pick<RunController, "report">;
  /** Where a failed load shows. */
  setState(patch: Partial<SessionState>): void;
}

/** How a session catches up with a thread that moved on without it: after a reload, in another window. */
export function createSessionRestore(options: SessionRestoreOptions): SessionRestore {
  const { setState } = options;
  let lastRunId: string | undefined;

  const restore = async (): Promise<void> => {
    options.outcomes.clearHeld(); // the stored thread replaces what this page held
    try {
      const followed = await options.follower.follow();
      if (!followed) return;
      const { thread, latest, last } = followed;
      lastRunId = thread.runs?.at(-1)?.runId;
      // Calls this tab started before the reload are answered by this tab, and only by it.
      const owed = latest ? owedCalls(latest, options.journal.owns) : [];
      if (owed.length > 0)
        await options.runs.report(
          last?.runId ?? owed[0]!.runId,
          owed.map((call) => call.toolCallId),
        );
    } catch (error) {
      setState({ error: errorJson(error) });
    }
  };

  return { restore, lastRunId: () => lastRunId };
}
