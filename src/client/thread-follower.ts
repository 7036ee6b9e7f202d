import type { AgentSubscriber } from "@ag-ui/client";
import type { Message } from "@ag-ui/core";
import type { SessionState } from "./agent-session.ts";
import { errorJson } from "./errors.ts";
import type { StoredThread } from "./load-thread.ts";
import type { RunEnd } from "./run-event-reader.ts";
import type { TetherHttpAgent } from "./tether-agent.ts";

/** A run followed to its end: its id and the browser calls it left waiting. */
export interface FollowedRun {
  runId: string;
  pending: string[];
}

/** What `createThreadFollower` returns. */
export type ThreadFollower = ReturnType<typeof createThreadFollower>;

/**
 * How a page catches up with its thread (after a reload, or when another tab
 * starts a run): it shows the stored thread, then follows each run the thread
 * has going without acting on it, until none is left.
 */
export function createThreadFollower(deps: {
  agent: TetherHttpAgent;
  subscriber: AgentSubscriber;
  load(): Promise<StoredThread | undefined>;
  setState(patch: Partial<SessionState>): void;
  /** The end of the run just streamed, taken once. */
  takeRunEnd(): RunEnd | undefined;
  showInterrupts(): void;
  /** The stored thread's messages, for the tool runner to know which calls already have results. */
  restoreCalls(messages: Message[]): void;
}) {
  const { agent, setState } = deps;

  /** Follows the thread's active run without acting on it; returns the run and its pending calls. */
  const observe = async (): Promise<FollowedRun | undefined> => {
    let finished: FollowedRun | undefined;
    setState({ running: true, observing: true });
    deps.takeRunEnd();
    try {
      await agent.connectAgent({}, deps.subscriber);
      const end = deps.takeRunEnd();
      if (end) finished = { runId: end.runId, pending: end.pending };
    } catch (error) {
      setState({ error: errorJson(error) });
    } finally {
      deps.showInterrupts();
      setState({ running: false, observing: false });
    }
    return finished;
  };

  /**
   * Shows the stored thread and follows its runs; returns the thread as it is
   * once nothing runs and the last run followed, or undefined when the server
   * has no such thread.
   */
  const follow = async (): Promise<{ thread: StoredThread; latest: StoredThread | undefined; last?: FollowedRun } | undefined> => {
    const thread = await deps.load();
    if (!thread) return undefined;
    agent.setMessages(thread.messages);
    agent.pendingInterrupts = thread.pendingInterrupts ?? [];
    deps.restoreCalls(thread.messages);
    setState({ messages: [...thread.messages] });
    deps.showInterrupts();
    let last: FollowedRun | undefined;
    const followed = new Set<string>();
    // Follow runs as long as the thread has one going (a continuation may start meanwhile), each once:
    // a run the server still calls active after its end reached us (its end waits for storage) is not followed again.
    for (let active = thread.activeRun; active && !followed.has(active.runId); active = (await deps.load())?.activeRun ?? null) {
      followed.add(active.runId);
      last = await observe();
      if (!last || last.runId !== active.runId) break;
    }
    const latest = await deps.load();
    // The runs followed streamed only their own events, and an agent in client history mode replays no input, so the
    // question that started the run is not among them: once nothing runs, the stored thread is the whole conversation.
    if (followed.size > 0 && latest && !latest.activeRun) {
      agent.setMessages(latest.messages);
      setState({ messages: [...latest.messages] });
    }
    return { thread, latest, ...(last ? { last } : {}) };
  };

  return { follow };
}
