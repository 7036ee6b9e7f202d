import type { ToolOutcome } from "../../protocol/index.ts";
import type { JournalEntry } from "./call-journal.ts";
import type { TrackedCall } from "./tool-call-tracker.ts";
import type { BrowserToolHandler } from "./tool-registry.ts";

/** How to answer for a call this page is not running: its stored outcome, an execution now, or an outcome it is owed. */
export type Settlement =
  | { kind: "journaled"; outcome: ToolOutcome }
  | { kind: "execute"; call: TrackedCall; handler: BrowserToolHandler; again: boolean }
  | { kind: "owed"; outcome: ToolOutcome };

export interface SettlementInput {
  toolName: string;
  /** The call as this page saw it (events or history); none after a reload that replayed nothing. */
  call: TrackedCall | undefined;
  /** What this tab's journal remembers of it, across reloads. */
  entry: JournalEntry | undefined;
  handler: BrowserToolHandler | undefined;
}

/**
 * The reload bookkeeping, and the other ways a call's outcome can be owed
 * without this page having run it. A call the journal finished keeps its
 * outcome; one held for approval runs now that it came back pending; after a
 * reload, a call this tab had started may or may not have happened
 * (`unknown`), unless its tool asks to `run-again`, and one it never started
 * did not (`cancelled`), both with reason `page_reloaded`.
 */
export function decideSettlement({ toolName, call, entry, handler }: SettlementInput): Settlement {
  if (entry?.state === "finished" && entry.outcome) return { kind: "journaled", outcome: entry.outcome };
  if (!handler) return { kind: "owed", outcome: { status: "failed", reason: "executor_failed", message: `This page has no executor for ${toolName}.` } };
  if (call?.late)
    return { kind: "owed", outcome: { status: "cancelled", message: `The call to ${toolName} arrived after its run had ended, so it did not run.` } };
  // Held for approval, and now pending: the approval came.
  if (call?.awaiting && entry === undefined) return { kind: "execute", call, handler, again: false };
  if (call?.ended && handler.onReload === "run-again") return { kind: "execute", call, handler, again: true };
  return {
    kind: "owed",
    outcome:
      entry?.state === "started"
        ? { status: "unknown", reason: "page_reloaded", message: `The page was reloaded while ${toolName} was running; it may or may not have happened.` }
        : { status: "cancelled", reason: "page_reloaded", message: `The page was reloaded before ${toolName} could run; it did not happen.` },
  };
}
