import type { Message } from "@ag-ui/core";
import type { SessionState } from "./agent-session.ts";
import type { CallJournal } from "./call-journal.ts";
import { errorJson } from "./errors.ts";
import type { StoredThread } from "./load-thread.ts";
import type { OutcomeReporter } from "./outcome-reporter.ts";
import { owedCalls } from "./owed-calls.ts";
import type { TetherHttpAgent } from "./tether-agent.ts";
import type { ThreadFollower } from "./thread-follower.ts";

export interface SessionRestore {
  /** Loads the thread, follows its active runs without acting on them, then answers what this tab still owes. */
  restore(): Promise<void>;
  /**
   * This tab was behind: another window's run asked for an approval it never saw, or changed the conversation (a
   * regenerated answer). The thread is loaded again, so what happened shows here, and the message waits in words,
   * not with the server's ids.
   */
  catchUp(message: Message, refusal: { code: string; message: string }): Promise<void>;
  /** The thread's latest run as last loaded: after a reload, what a surface's renderer error is reported on when its own run is unknown. */
  lastRunId(): string | undefined;
}

export interface SessionRestoreOptions {
  /** The session's agent: its messages are the conversation as this tab shows it. */
  agent: TetherHttpAgent;
  /** The agent this session talks to; undefined for a plain AG-UI server. */
  agentId: string | undefined;
  /** Reads the stored thread; undefined when there is none. */
  load(): Promise<StoredThread | undefined>;
  /** Shows the stored thread and follows its runs. */
  follower: ThreadFollower;
  /** Which runs this tab started, so which calls it owes. */
  journal: CallJournal;
  /** Answers the owed calls, and holds the outcomes the stored thread replaces. */
  reporter: OutcomeReporter;
  setState(patch: Partial<SessionState>): void;
}

/** How a session catches up with a thread that moved on without it: after a reload, in another window. */
export function createSessionRestore(options: SessionRestoreOptions): SessionRestore {
  const { agent, reporter, setState } = options;
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

  const catchUp = async (message: Message, refusal: { code: string; message: string }): Promise<void> => {
    const seen = agent.messages.filter((known) => known.id !== message.id).map((known) => known.id);
    // Another agent's thread under this id is not this conversation moved on: nothing of it is loaded here.
    const theirs = options.agentId !== undefined && (await options.load().catch(() => undefined))?.agentId !== options.agentId;
    if (!theirs) {
      await restore();
      agent.addMessage(message);
    }
    // A conflict the thread as it now is does not explain is the server's to word, and sending it again will not help.
    const changed = !theirs && JSON.stringify(seen) !== JSON.stringify(agent.messages.slice(0, -1).map((known) => known.id));
    const words =
      refusal.code === "interrupt_pending"
        ? "The conversation moved on in another window and now waits for an approval, shown here. Answer it, or send this again to move on without it."
        : changed
          ? "The conversation changed in another window; it is shown here as it is now. Send this again to go on."
          : refusal.message;
    setState({
      messages: [...agent.messages],
      error: undefined,
      unsent: {
        messageId: message.id,
        text: String(message.content),
        error: { code: refusal.code, message: words },
        retryable: refusal.code === "interrupt_pending" || changed,
      },
    });
  };

  return { restore, catchUp, lastRunId: () => lastRunId };
}
