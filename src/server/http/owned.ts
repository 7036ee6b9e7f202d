import { beginRunRefusals } from "../store/begin-run-refusals.ts";
import { TetherError, isValidId } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/user.ts";
import type { RunRecord, RunStore, ThreadRecord } from "../store/port.ts";

/** The thread, if it exists and belongs to the user: 404 or 403 otherwise. */
export async function ownedThread(store: RunStore, threadId: string, user: TetherUser): Promise<ThreadRecord> {
  if (!isValidId(threadId)) throw new TetherError("invalid_id", "That thread id is not a valid id.");
  const thread = await store.getThread(threadId);
  if (!thread) throw new TetherError("thread_not_found", `There is no thread ${threadId}.`);
  if (thread.ownerId !== user.id) throw beginRunRefusals.threadOfAnotherUser();
  return thread;
}

/** The run, if it exists and its thread belongs to the user: 404 or 403 otherwise. */
export async function ownedRun(store: RunStore, runId: string, user: TetherUser): Promise<RunRecord> {
  if (!isValidId(runId)) throw new TetherError("invalid_id", "That run id is not a valid id.");
  const run = await store.getRun(runId);
  if (!run) throw new TetherError("run_not_found", `There is no run ${runId}.`);
  await ownedThread(store, run.threadId, user);
  return run;
}

/**
 * Who may read a run's record besides its owner: an app's admins, for the
 * runs of that app's agent (one server may serve several apps, whose admins
 * are not each other's). None by default.
 */
export type CanReadAllRecords = (user: TetherUser, agentId: string) => boolean;

/** The thread, if it exists and the user owns it or may read every record of its agent: 404 or 403 otherwise, as `ownedThread`. */
export async function readableThread(store: RunStore, threadId: string, user: TetherUser, canReadAll?: CanReadAllRecords): Promise<ThreadRecord> {
  if (!isValidId(threadId)) throw new TetherError("invalid_id", "That thread id is not a valid id.");
  const thread = await store.getThread(threadId);
  if (!thread) throw new TetherError("thread_not_found", `There is no thread ${threadId}.`);
  if (thread.ownerId !== user.id && !canReadAll?.(user, thread.agentId)) throw beginRunRefusals.threadOfAnotherUser();
  return thread;
}

/** The run, if it exists and the user owns its thread or may read every record of its agent: 404 or 403 otherwise, as `ownedRun`. */
export async function readableRun(store: RunStore, runId: string, user: TetherUser, canReadAll?: CanReadAllRecords): Promise<RunRecord> {
  if (!isValidId(runId)) throw new TetherError("invalid_id", "That run id is not a valid id.");
  const run = await store.getRun(runId);
  if (!run) throw new TetherError("run_not_found", `There is no run ${runId}.`);
  await readableThread(store, run.threadId, user, canReadAll);
  return run;
}
