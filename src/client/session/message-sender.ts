import { randomUUID } from "@ag-ui/client";
import type { Message } from "@ag-ui/core";
import { TetherError, isTetherError } from "../../protocol/index.ts";
import type { AgentSessionOptions } from "./session-types.ts";
import { dropUnsent } from "./drop-unsent.ts";
import type { DriftReport } from "../drift.ts";
import { errorJson, isRetryable, type SessionError } from "../errors.ts";
import type { InterruptAnswers } from "./interrupt-answers.ts";
import type { StoredThread } from "./load-thread.ts";
import type { OutcomeReporter } from "./outcome-reporter.ts";
import { regenerateCut, type RegenerateCut } from "./regenerate-cut.ts";
import type { RunController } from "./run-controller.ts";
import type { SessionRestore } from "./session-restore.ts";
import type { SessionStore } from "./session-store.ts";
import type { TetherHttpAgent } from "../transport/index.ts";

const MOVED_ON = "The conversation moved on in another window, so that answer stays; this is the conversation as it is now.";
const WAITS_FOR_APPROVAL = "The conversation moved on in another window and now waits for an approval, shown here.";

export interface MessageSender {
  /** Sends a user message and runs the agent; a message the server does not take waits in `state.unsent`. */
  send(text: string): Promise<void>;
  /** Answers the last user message again; if the server does not take the run, the old answer comes back. */
  regenerate(): Promise<void>;
  /** Where Regenerate would cut the conversation, or undefined while it cannot. */
  regenerable(): RegenerateCut | undefined;
  /** Whether a send or a regenerate is on its way. */
  sending(): boolean;
}

export interface MessageSenderOptions {
  /** The session's agent: its messages are the conversation as this tab shows it. */
  agent: TetherHttpAgent;
  /** The session's state: read, and changed as the run goes. */
  store: SessionStore;
  /** The session's own options, read when they are needed: what a send does on drift, and which agent the thread must be of. */
  sessionOptions: Pick<AgentSessionOptions, "drift" | "agentId">;
  /** Reads the stored thread; undefined when there is none. */
  load(): Promise<StoredThread | undefined>;
  /** The session's drift check, made once and shared with `session.checkDrift()`. */
  checkDrift(): Promise<DriftReport>;
  /** Forgets a failed drift check, so the next send checks again. */
  forgetDrift(): void;
  /** Starts the runs (the run controller): false when the server never started the run; whether outcomes are being reported. */
  runs: Pick<RunController, "start" | "reporting">;
  /** The answers to open interrupts, which a new message moves on from. */
  answers: InterruptAnswers;
  /** Loads the thread again when a send or a regenerate finds that it moved on. */
  sessionRestore: Pick<SessionRestore, "restore">;
  /** The outcomes this page holds for the next run. */
  outcomes: Pick<OutcomeReporter, "heldResults">;
}

/** A session's user messages: sending one, and asking for the last answer again. */
export function createMessageSender(options: MessageSenderOptions): MessageSender {
  const { agent, store, runs } = options;
  const { heldResults } = options.outcomes;
  const setState = store.set;
  // Set before the first await of a send, so a second click cannot start another while the first checks drift.
  let sending = false;

  /**
   * This tab was behind: another window's run asked for an approval it never saw, or changed the conversation (a
   * regenerated answer). The thread is loaded again, so what happened shows here, and the message waits in words,
   * not with the server's ids.
   */
  const catchUp = async (message: Message, refusal: SessionError): Promise<void> => {
    const seen = agent.messages.filter((known) => known.id !== message.id).map((known) => known.id);
    // Another agent's thread under this id is not this conversation moved on: nothing of it is loaded here.
    const { agentId } = options.sessionOptions;
    const theirs = agentId !== undefined && (await options.load().catch(() => undefined))?.agentId !== agentId;
    if (!theirs) {
      await options.sessionRestore.restore();
      agent.addMessage(message);
    }
    // A conflict the thread as it now is does not explain is the server's to word, and sending it again will not help.
    const changed = !theirs && JSON.stringify(seen) !== JSON.stringify(agent.messages.slice(0, -1).map((known) => known.id));
    const words =
      refusal.code === "interrupt_pending"
        ? `${WAITS_FOR_APPROVAL} Answer it, or send this again to move on without it.`
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

  const send = async (text: string): Promise<void> => {
    if (store.get().running || sending) throw new TetherError("run_in_progress", "Wait for the current answer, or stop it, before sending another message.");
    sending = true;
    try {
      try {
        if (options.sessionOptions.drift !== "ignore") await options.checkDrift();
      } catch (error) {
        options.forgetDrift();
        if (isTetherError(error) && options.sessionOptions.drift === "throw") {
          setState({ error: errorJson(error) });
          throw error;
        }
      }
      dropUnsent(agent, store);
      const message = { id: randomUUID(), role: "user" as const, content: text };
      agent.addMessage(message);
      setState({ messages: [...agent.messages] }); // in the log at once, while it is on its way
      if (await runs.start({ kind: "user-message" }, options.answers.movingOn())) return;
      const refusal = store.get().error;
      if (refusal?.code === "interrupt_pending" || refusal?.code === "history_conflict") return await catchUp(message, refusal);
      const error = refusal ?? { code: "internal", message: "The message was not sent." };
      setState({ messages: [...agent.messages], unsent: { messageId: message.id, text, error, retryable: isRetryable(error.code) } });
    } finally {
      sending = false;
    }
  };

  const regenerable = (): RegenerateCut | undefined => {
    const state = store.get();
    if (state.running || sending || runs.reporting() || state.interrupts.length > 0 || state.unsent) return undefined;
    if ([...heldResults.values()].includes("follow-up")) return undefined;
    return regenerateCut(agent.messages, new Set(heldResults.keys()));
  };

  const regenerate = async (): Promise<void> => {
    if (store.get().running || sending || runs.reporting())
      throw new TetherError("run_in_progress", "Wait for the current answer, or stop it, before asking for another.");
    if (store.get().interrupts.length > 0) throw new TetherError("interrupt_pending", "Answer the approval first: the answer waits for it.");
    const cut = regenerable();
    if (!cut) throw new TetherError("history_conflict", "There is no answer to give again.");
    sending = true;
    const previous = agent.messages;
    try {
      agent.setMessages(cut.keep);
      setState({ messages: [...agent.messages] }); // the old words go at once; the server's snapshot confirms what stays
      if (await runs.start({ kind: "regenerate", messageId: cut.questionId })) return;
      // Not taken: the answer stands. A thread that moved on elsewhere (or is answering there) is loaded as it now is.
      agent.setMessages(previous);
      setState({ messages: [...previous] });
      const code = store.get().error?.code;
      if (code !== "history_conflict" && code !== "run_in_progress" && code !== "interrupt_pending") return;
      await options.sessionRestore.restore();
      setState({ error: code === "run_in_progress" ? undefined : { code, message: code === "history_conflict" ? MOVED_ON : WAITS_FOR_APPROVAL } });
    } finally {
      sending = false;
    }
  };

  return { send, regenerate, regenerable, sending: () => sending };
}
