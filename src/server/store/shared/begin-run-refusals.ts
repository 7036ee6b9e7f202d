import { isTetherError, TetherError } from "../../../protocol/index.ts";

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
  // Another request answered one of the calls this run answers between its checks and its write (two tabs, a retry).
  callAnsweredMeanwhile: (toolCallId: string) =>
    new TetherError(
      "history_conflict",
      `Browser tool call ${toolCallId} was answered by another run meanwhile: the conversation moved on. Load the thread again.`,
    ),
  answerMovedOn: (messageId: string) =>
    new TetherError("history_conflict", `The answer to message ${messageId} is no longer the thread's last: the conversation moved on. Load the thread again.`),
};

/**
 * Whether `beginRun` refused because the thread moved on after the request
 * was checked: another run began, or answered the same interrupt or browser
 * call, or took a message id, meanwhile. Checked again, the request may now
 * be that run's repeat (the same outcome from two tabs at once), which is
 * answered with that run rather than refused.
 */
export function movedOnMeanwhile(error: unknown): boolean {
  return isTetherError(error) && (error.code === "run_in_progress" || error.code === "resume_conflict" || error.code === "history_conflict");
}
