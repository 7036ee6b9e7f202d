import type { Message } from "@ag-ui/core";
import type { RecordReport } from "../../protocol/index.ts";
import type { RunLink, StoredRun, RunReport } from "../store/index.ts";
import { keep } from "./keep.ts";
import { RECORD_LIMITS } from "./record-limits.ts";

/**
 * Part 5 of a record, what the browser reported about the run and what each
 * report led to: tool outcomes (led to the run that carried the outcome to
 * the model), renderer errors (which lead nowhere), and clicks on the run's
 * surfaces (each led to the run it started), oldest first.
 */
export function recordReports(options: {
  run: StoredRun;
  reports: RunReport[];
  /** The thread's runs, oldest first. */
  runs: RunLink[];
  /** The thread's tool results by the call they answer. */
  results: Map<string, Message>;
  /** The run that stored a thread message. */
  runOfMessage: (messageId: string) => Promise<string | undefined>;
}): Promise<RecordReport[]> {
  return Promise.all(options.reports.map((report) => browserReport(report, options))).then((reports) => {
    const clicks = options.runs
      .filter((later) => later.trigger?.kind === "ui-action" && later.parentRunId === options.run.runId)
      .map((later): RecordReport => {
        const action = (later.trigger?.action ?? {}) as { surfaceId?: unknown };
        return {
          receivedAt: later.createdAt,
          kind: "ui-action",
          ...(typeof action.surfaceId === "string" ? { surfaceId: action.surfaceId } : {}),
          body: keep<unknown>(later.trigger?.action ?? {}, RECORD_LIMITS.value),
          ledToRunId: later.runId,
        };
      });
    return [...reports, ...clicks].sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
  });
}

async function browserReport(
  { receivedAt, report }: RunReport,
  options: { runs: RunLink[]; results: Map<string, Message>; runOfMessage: (messageId: string) => Promise<string | undefined> },
): Promise<RecordReport> {
  const fields = (report ?? {}) as { kind?: unknown; toolCallId?: unknown; toolName?: unknown; surfaceId?: unknown };
  const kind = fields.kind === "renderer-error" ? "renderer-error" : "tool-outcome";
  const recorded: RecordReport = {
    receivedAt,
    kind,
    ...(typeof fields.toolCallId === "string" ? { toolCallId: fields.toolCallId } : {}),
    ...(typeof fields.toolName === "string" ? { toolName: fields.toolName } : {}),
    ...(typeof fields.surfaceId === "string" ? { surfaceId: fields.surfaceId } : {}),
    body: keep(report, RECORD_LIMITS.value),
  };
  if (kind === "tool-outcome" && recorded.toolCallId) {
    const ledTo = await carrierOf(recorded.toolCallId, options);
    if (ledTo) recorded.ledToRunId = ledTo;
  }
  return recorded;
}

/** The run that carried a browser call's outcome to the model: the one whose trigger names it, else the one that stored its result. */
async function carrierOf(
  toolCallId: string,
  options: { runs: RunLink[]; results: Map<string, Message>; runOfMessage: (messageId: string) => Promise<string | undefined> },
): Promise<string | undefined> {
  const named = options.runs.find((run) => run.trigger?.kind === "tool-result" && run.trigger.toolCallIds?.includes(toolCallId));
  if (named) return named.runId;
  const result = options.results.get(toolCallId);
  return result ? options.runOfMessage(result.id) : undefined;
}
