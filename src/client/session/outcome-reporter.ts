import { randomUUID, type HttpAgentFetchFn } from "@ag-ui/client";
import type { ToolMessage } from "@ag-ui/core";
import type { BrowserToolKind, Trigger } from "../../protocol/index.ts";
import type { CallJournal } from "../tools/index.ts";
import type { TetherHttpAgent } from "../transport/index.ts";
import type { ToolRunner } from "../tools/index.ts";

/** Where a session's browser calls end up once carried out: the conversation, the run's record, the next run. */
export interface OutcomeReporter {
  /**
   * Hands back the outcomes of a run's browser calls; returns the trigger of the continuation run that must carry
   * follow-up outcomes to the model (unless `continueRun` is false: then they wait, held, for the next run).
   */
  report(parentRunId: string, toolCallIds: string[], options?: { continueRun?: boolean }): Promise<Trigger | undefined>;
  /** Tells the run's record what the page saw; a report that cannot be sent must not break the page. */
  postReport(runId: string, report: Record<string, unknown>): Promise<unknown>;
  /**
   * Outcomes this page holds for the next run, by message id, with their tool's kind: not the server's yet. A render-only
   * call is set aside with the words around it; a follow-up's outcome (a screen opened, its run then failed) must reach
   * the model first, so Regenerate waits for the next message to carry it.
   */
  readonly heldResults: ReadonlyMap<string, BrowserToolKind>;
  /** Forgets the held outcomes: a run's request carried them, or the stored thread replaced them. */
  clearHeld(): void;
}

export interface OutcomeReporterOptions {
  /** Tether's API root; a plain AG-UI server has none, and so no run record to report to. */
  api: string | undefined;
  /** The page's `fetch` (the session's option), for reports to the run's record. */
  fetch: HttpAgentFetchFn;
  /** The session's headers (credentials), sent with each report. */
  headers: Record<string, string>;
  /** The session's agent: the outcomes join its messages as tool messages. */
  agent: TetherHttpAgent;
  /** Which calls were reported before a reload, and marks these reported. */
  journal: CallJournal;
  /** Settles the calls: their outcomes, waiting for executions in flight. */
  runner: ToolRunner;
}

/**
 * How a session hands its browser calls' outcomes back: as tool messages on
 * the conversation, render-only ones also to the run's record at once, and
 * follow-ups by naming the continuation run (the run controller starts it).
 */
export function createOutcomeReporter(options: OutcomeReporterOptions): OutcomeReporter {
  // Called unbound, as the session always called it: a page's own `fetch` may be the window's, which refuses another `this`.
  const { agent, journal, fetch: pageFetch } = options;
  const heldResults = new Map<string, BrowserToolKind>();

  const postReport = (runId: string, report: Record<string, unknown>): Promise<unknown> =>
    pageFetch(`${options.api}/runs/${encodeURIComponent(runId)}/reports`, {
      method: "POST",
      headers: { ...options.headers, "Content-Type": "application/json" },
      body: JSON.stringify(report),
    }).catch(() => {});

  const report = async (parentRunId: string, toolCallIds: string[], { continueRun = true } = {}): Promise<Trigger | undefined> => {
    const settled = await options.runner.settle(toolCallIds);
    const messages: ToolMessage[] = settled.map((call) => ({
      id: randomUUID(),
      role: "tool",
      toolCallId: call.toolCallId,
      content: JSON.stringify(call.outcome),
    }));
    // Reported before a reload (a render-only outcome whose message waited for the next run): its message goes again, its report does not.
    const reportedBefore = new Set(toolCallIds.filter((toolCallId) => journal.get(toolCallId)?.reported));
    agent.addMessages(messages);
    journal.markReported(toolCallIds);
    for (const call of options.api ? settled.filter((call) => call.kind === "render-only" && !reportedBefore.has(call.toolCallId)) : []) {
      // Render-only outcomes also go to the run record now; their tool message rides with the next run.
      void postReport(parentRunId, { kind: "tool-outcome", toolCallId: call.toolCallId, toolName: call.toolName, outcome: call.outcome });
    }
    const followUps = settled.filter((call) => call.kind === "follow-up").map((call) => call.toolCallId);
    if (followUps.length === 0 || !continueRun) settled.forEach((call, index) => heldResults.set(messages[index]!.id, call.kind));
    return followUps.length > 0 && continueRun ? { kind: "tool-result", parentRunId, toolCallIds: settled.map((call) => call.toolCallId) } : undefined;
  };

  return {
    report,
    postReport,
    heldResults,
    clearHeld: () => heldResults.clear(),
  };
}
