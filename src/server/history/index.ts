/**
 * A thread's history: the history modes, reconciling what a client sends with what is stored, and
 * regenerating an answer. This folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export type { HistoryMode } from "./history-mode.ts";
export { prepareClientHistory, reconcileServerHistory, type ReconciledHistory } from "./reconcile.ts";
export { prepareRegeneration, storedWordsToSetAside } from "./regenerate.ts";
export { repeatedMessages, type RepeatedMessages } from "./repeated-messages.ts";
