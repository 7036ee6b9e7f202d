import { beginRunRefusals } from "../store/shared/index.ts";
import { TetherError, isValidId } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { StoredRun, RunStore, StoredThread } from "../store/index.ts";

/** The thread, if it exists and belongs to the user: 404 or 403 otherwise. */
export async function ownedThread(store: RunStore, threadId: string, user: TetherUser): Promise<StoredThread> {
  if (!isValidId(threadId)) throw new TetherError("invalid_id", "That thread id is not a valid id.");
  const thread = await store.getThread(threadId);
  if (!thread) throw new TetherError("thread_not_found", `There is no thread ${threadId}.`);
  if (thread.ownerId !== user.id) throw beginRunRefusals.threadOfAnotherUser();
  return thread;
}

/** The run, if it exists and its thread belongs to the user: 404 or 403 otherwise. */
export async function ownedRun(store: RunStore, runId: string, user: TetherUser): Promise<StoredRun> {
  if (!isValidId(runId)) throw new TetherError("invalid_id", "That run id is not a valid id.");
  const run = await store.getRun(runId);
  if (!run) throw new TetherError("run_not_found", `There is no run ${runId}.`);
  await ownedThread(store, run.threadId, user);
  return run;
}

/** The record a reader asks for, as the app sees it when deciding: whose thread it is, and which agent ran it. */
export interface RecordScope {
  threadId: string;
  /** The user who owns the thread: the app maps this to its own notion of scope (an organisation, a team). */
  ownerId: string;
  agentId: string;
}

/**
 * Whether a reader may read a record of a thread they do not own (an app's
 * admins, for the records of their own organisation and agent). Asked only
 * for someone else's thread; a refusal is answered as for any other user's
 * thread. None by default.
 */
export type CanReadRecord<User extends TetherUser = TetherUser> = (reader: User, record: RecordScope) => boolean | Promise<boolean>;

/** The thread, if it exists and the user owns it or `canRead` lets them read it: 404 or 403 otherwise, as `ownedThread`. */
export async function readableThread(store: RunStore, threadId: string, user: TetherUser, canRead?: CanReadRecord): Promise<StoredThread> {
  if (!isValidId(threadId)) throw new TetherError("invalid_id", "That thread id is not a valid id.");
  const thread = await store.getThread(threadId);
  if (!thread) throw new TetherError("thread_not_found", `There is no thread ${threadId}.`);
  if (thread.ownerId === user.id) return thread;
  const scope: RecordScope = { threadId: thread.threadId, ownerId: thread.ownerId, agentId: thread.agentId };
  // Only `true` opens it: an app's hook that returns anything else (undefined, a truthy object) refuses.
  if ((await canRead?.(user, scope)) !== true) throw beginRunRefusals.threadOfAnotherUser();
  return thread;
}

/** The run, if it exists and the user owns its thread or `canRead` lets them read it: 404 or 403 otherwise, as `ownedRun`. */
export async function readableRun(store: RunStore, runId: string, user: TetherUser, canRead?: CanReadRecord): Promise<StoredRun> {
  if (!isValidId(runId)) throw new TetherError("invalid_id", "That run id is not a valid id.");
  const run = await store.getRun(runId);
  if (!run) throw new TetherError("run_not_found", `There is no run ${runId}.`);
  await readableThread(store, run.threadId, user, canRead);
  return run;
}
