import type { RunAgentInput } from "@ag-ui/core";
import type { Trigger } from "../../protocol/index.ts";
import type { Agent } from "../agent/index.ts";
import { repeatedAnswersRun } from "../approvals/index.ts";
import type { TetherUser } from "../auth/index.ts";
import { repeatedUiActionRun } from "../genui/surfaces/index.ts";
import { repeatedMessages, type RepeatedMessages } from "../history/index.ts";
import type { RunStore, StoredRun } from "../store/index.ts";

/**
 * Whether a request that comes while a run of its thread is going is that
 * run's own request again: the same browser outcome posted from two tabs at
 * once, a retry racing the first. It is when all it carries is what that run
 * took in (the same outcomes, the same answers to approvals, the same click
 * on a surface) and nothing new. Such a request follows the run, as a
 * reconnect does, and starts nothing; any other waits (`run_in_progress`).
 * The same rule as for a request repeating a run that has ended, read from
 * the store, so it holds whichever instance executes the run.
 */
export async function repeatsActiveRun(options: {
  active: StoredRun;
  agent: Agent;
  user: TetherUser;
  input: RunAgentInput;
  trigger: Trigger | undefined;
  store: RunStore;
}): Promise<boolean> {
  const { active, agent, user, input, store } = options;
  // Another answer is asked for anew each time, after a run as during one.
  if (options.trigger?.kind === "regenerate") return false;
  const stored = await store.getMessages(input.threadId);
  let repeated: RepeatedMessages | undefined;
  if (agent.history === "server") {
    repeated = repeatedMessages(stored, input.messages);
  } else {
    // The client owns a stateless thread's history: a user message the store never saw is all the news it can tell.
    const storedIds = new Set(stored.map((message) => message.id));
    repeated = input.messages.some((message) => message.role === "user" && !storedIds.has(message.id)) ? undefined : {};
  }
  if (!repeated) return false;
  const resume = input.resume ?? [];
  if (resume.length > 0) return (await repeatedAnswersRun({ resume, threadId: input.threadId, user, store })) === active.runId;
  const click = await repeatedUiActionRun(input.threadId, input.forwardedProps, store);
  if (click) return click.runId === active.runId;
  // A stateless agent's outcomes are the client's history, not the store's: only the store's own thread says who took one in.
  if (agent.history !== "server" || !repeated.newestResultId) return false;
  return (await store.getMessageRun(input.threadId, repeated.newestResultId)) === active.runId;
}
