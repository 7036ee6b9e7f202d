import type { ToolRunner } from "../tools/index.ts";
import type { TetherHttpAgent } from "../transport/index.ts";
import type { StoredThread } from "./load-thread.ts";
import type { FollowedRun, RunController } from "./run-controller.ts";
import type { SessionStore } from "./session-store.ts";
import type { SessionSharedState } from "./shared-state.ts";
import { showInterrupts } from "./show-interrupts.ts";

/** What `createThreadFollower` returns. */
export type ThreadFollower = ReturnType<typeof createThreadFollower>;

/**
 * How a page catches up with its thread (after a reload, or when another tab
 * starts a run): it shows the stored thread, then follows each run the thread
 * has going without acting on it, until none is left.
 */
export function createThreadFollower(deps: {
  agent: TetherHttpAgent;
  store: Pick<SessionStore, "set">;
  load(): Promise<StoredThread | undefined>;
  /** Follows one run to its end (the run controller). */
  runs: Pick<RunController, "follow">;
  /** Learns from the stored thread which calls already have results, and shows what waits for an approval. */
  runner: Pick<ToolRunner, "restore" | "markAwaiting">;
  /** Takes the stored thread's shared state, beside its messages. */
  sharedState: Pick<SessionSharedState, "loaded">;
}) {
  const { agent, store } = deps;

  /**
   * Shows the stored thread and follows its runs; returns the thread as it is
   * once nothing runs and the last run followed, or undefined when the server
   * has no such thread.
   */
  const follow = async (): Promise<{ thread: StoredThread; latest: StoredThread | undefined; last?: FollowedRun } | undefined> => {
    const thread = await deps.load();
    if (!thread) return undefined;
    agent.setMessages(thread.messages);
    deps.sharedState.loaded(thread.state);
    agent.pendingInterrupts = thread.pendingInterrupts ?? [];
    deps.runner.restore(thread.messages);
    store.set({ messages: [...thread.messages] });
    showInterrupts(agent, deps.runner, store);
    let last: FollowedRun | undefined;
    const followed = new Set<string>();
    // Follow runs as long as the thread has one going (a continuation may start meanwhile), each once:
    // a run the server still calls active after its end reached us (its end waits for storage) is not followed again.
    for (let active = thread.activeRun; active && !followed.has(active.runId); active = (await deps.load())?.activeRun ?? null) {
      followed.add(active.runId);
      last = await deps.runs.follow();
      if (!last || last.runId !== active.runId) break;
    }
    const latest = await deps.load();
    // The runs followed streamed only their own events, and an agent in client history mode replays no input, so the
    // question that started the run is not among them: once nothing runs, the stored thread is the whole conversation.
    if (followed.size > 0 && latest && !latest.activeRun) {
      agent.setMessages(latest.messages);
      deps.sharedState.loaded(latest.state);
      store.set({ messages: [...latest.messages] });
    }
    return { thread, latest, ...(last ? { last } : {}) };
  };

  return { follow };
}
