import type { Message, RunAgentInput } from "@ag-ui/core";
import { TetherError, TriggerSchema, isValidId, readTetherProps, type Trigger } from "../../protocol/index.ts";
import type { Agent } from "../agent/define-agent.ts";
import type { TetherUser } from "../auth/user.ts";
import { prepareClientHistory, reconcileServerHistory, type ReconciledHistory } from "../history/reconcile.ts";
import type { RunStore } from "../store/port.ts";
import { buildToolSet } from "../tools/tool-set.ts";
import type { RunHub } from "./hub.ts";
import type { IdSource } from "./ids.ts";
import { runLoop } from "./loop.ts";

export interface Runner {
  /**
   * Checks a run request and starts the run. Everything that can be refused
   * is refused here, before anything is stored and before the stream opens.
   * The run then goes on by itself: a client that goes away does not stop it.
   */
  start(user: TetherUser, agentId: string, input: RunAgentInput): Promise<{ runId: string; threadId: string }>;
  /** Asks a running run to stop; it ends with outcome `cancelled`. */
  cancel(runId: string): boolean;
  /** Resolves when the run's loop has ended (immediately if it is not running here). */
  settled(runId: string): Promise<void>;
  /** Cancels nothing; waits for every running run to end. */
  drain(): Promise<void>;
}

export function createRunner(options: { agents: Map<string, Agent>; store: RunStore; hub: RunHub; ids: IdSource }): Runner {
  const { agents, store, hub, ids } = options;
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  return {
    async start(user, agentId, input) {
      const agent = agents.get(agentId);
      if (!agent) throw new TetherError("agent_not_found", `There is no agent "${agentId}".`);
      checkIds(input);
      const trigger = parseTrigger(input);
      const parentRunId = trigger?.parentRunId ?? input.parentRunId;

      const thread = await store.getThread(input.threadId);
      if (thread && thread.ownerId !== user.userId) throw new TetherError("forbidden", "This thread belongs to another user.");
      if (thread && thread.agentId !== agent.id) {
        throw new TetherError("history_conflict", `Thread ${input.threadId} belongs to agent "${thread.agentId}", not "${agent.id}".`);
      }
      if (await store.getRun(input.runId)) throw new TetherError("run_exists", `Run ${input.runId} already exists; every run needs a new runId.`);
      if (thread && (await store.getActiveRun(thread.threadId))) {
        throw new TetherError("run_in_progress", "This thread already has a run in progress; wait for it to finish or cancel it.");
      }
      if (parentRunId) {
        const parent = await store.getRun(parentRunId);
        if (!parent || parent.threadId !== input.threadId) {
          throw new TetherError("invalid_trigger", `The parent run ${parentRunId} is not a run of thread ${input.threadId}.`);
        }
      }

      const toolSet = buildToolSet(agent, user, input.tools);
      const stored = thread ? await store.getMessages(thread.threadId) : [];
      const history: ReconciledHistory =
        agent.history === "server"
          ? reconcileServerHistory({
              stored,
              pending: thread ? await store.getPendingToolCalls(thread.threadId) : [],
              incoming: input.messages,
              newMessageId: ids.message,
            })
          : prepareClientHistory(input.messages);
      // In client mode the request is the reference; the store keeps what it has not seen, for the record.
      const storedIds = new Set(stored.map((message) => message.id));
      const added = agent.history === "server" ? history.added : history.added.filter((message) => !storedIds.has(message.id));

      await store.beginRun({
        thread: { threadId: input.threadId, agentId: agent.id, ownerId: user.userId },
        run: {
          runId: input.runId,
          userId: user.userId,
          ...(parentRunId ? { parentRunId } : {}),
          ...(trigger ? { trigger } : {}),
          input: recordableInput(input, agent.history),
          log: toolSet.log,
        },
        messages: added,
        resolvedToolCallIds: history.resolvedToolCallIds,
      });

      const controller = new AbortController();
      const channel = hub.open(input.runId);
      const done = runLoop({
        agent,
        user,
        threadId: input.threadId,
        runId: input.runId,
        ...(parentRunId ? { parentRunId } : {}),
        context: input.context,
        history: history.history,
        // In client mode the client holds the history; nothing to replay.
        added: agent.history === "server" ? history.added : [],
        synthesized: history.synthesized,
        toolSet,
        store,
        channel,
        signal: controller.signal,
        ids,
      }).finally(() => running.delete(input.runId));
      running.set(input.runId, { controller, done });
      return { runId: input.runId, threadId: input.threadId };
    },
    cancel(runId) {
      const run = running.get(runId);
      if (!run) return false;
      run.controller.abort(new TetherError("run_cancelled", "The run was cancelled."));
      return true;
    },
    async settled(runId) {
      await running.get(runId)?.done;
    },
    async drain() {
      await Promise.all([...running.values()].map((run) => run.done));
    },
  };
}

function checkIds(input: RunAgentInput): void {
  const ids: Array<[string, unknown]> = [
    ["threadId", input.threadId],
    ["runId", input.runId],
  ];
  if (input.parentRunId !== undefined) ids.push(["parentRunId", input.parentRunId]);
  for (const message of input.messages) {
    ids.push(["message id", message.id]);
    if (message.role === "assistant") for (const call of message.toolCalls ?? []) ids.push(["tool call id", call.id]);
    if (message.role === "tool") ids.push(["toolCallId", message.toolCallId]);
  }
  for (const [name, value] of ids) {
    if (!isValidId(value)) {
      const shown = typeof value === "string" ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : String(value);
      throw new TetherError("invalid_id", `The ${name} ${shown} is not a valid id: use 1-128 letters, digits, "_", ".", ":" or "-".`);
    }
  }
}

function parseTrigger(input: RunAgentInput): Trigger | undefined {
  const raw = readTetherProps(input.forwardedProps).trigger;
  if (raw === undefined) return undefined;
  const parsed = TriggerSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TetherError("invalid_trigger", `forwardedProps.tether.trigger is not a valid trigger: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(trigger)"}: ${issue.message}`).join("; ")}.`);
  }
  return parsed.data;
}

/** What the run record keeps of the request; in server mode the thread already holds the history. */
function recordableInput(input: RunAgentInput, mode: Agent["history"]): unknown {
  if (mode === "client") return input;
  const { messages, ...rest } = input;
  return { ...rest, messageIds: messages.map((message: Message) => message.id) };
}
