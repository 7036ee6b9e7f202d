import { TetherError } from "../../../protocol/index.ts";

/**
 * Why a run may not begin. The run's preparation checks these early, for a
 * clear answer; the store checks them again inside the transaction that
 * begins the run, where two racing requests cannot both pass. Both say it
 * in the same words.
 */
export const beginRunRefusals = {
  threadOfAnotherUser: () => new TetherError("forbidden", "This thread belongs to another user."),
  runExists: (runId: string) => new TetherError("run_exists", `Run ${runId} already exists; every run needs a new runId.`),
  runInProgress: () => new TetherError("run_in_progress", "This thread already has a run in progress; wait for it to finish or cancel it."),
  // Only a message the thread no longer shows (an answer set aside) can meet this: the history checks see every other one.
  messageIdUsed: (messageId?: string) =>
    new TetherError(
      "history_conflict",
      `${messageId ? `Message id ${messageId}` : "A message id of this request"} was used before in this thread, by an answer since set aside; every message needs a new id.`,
    ),
  answerMovedOn: (messageId: string) =>
    new TetherError("history_conflict", `The answer to message ${messageId} is no longer the thread's last: the conversation moved on. Load the thread again.`),
};
