/**
 * A run record as `tether record` prints it: plain text, one section per part
 * of the record, in the order things happened. No colour and no width
 * detection, so the output reads the same in a terminal, a log and a test.
 *
 * @module
 */
import {
  TRIGGER_LABELS,
  approvalsOf,
  browserOutcomeOf,
  describeAnswer,
  describeCut,
  keptText,
  type Kept,
  type RecordModelCall,
  type RecordStart,
  type RunRecordDocument,
} from "../protocol/index.ts";

export interface TimelineOptions {
  /** The records of the run's next runs, to show how its approvals were answered. */
  nextRecords?: readonly RunRecordDocument[];
  /** How many characters of a value (text, arguments, results) to print on one line before "…". */
  valueWidth?: number;
}

/** The run's timeline as lines of text, ending with a newline. */
export function formatRecordTimeline(record: RunRecordDocument, options: TimelineOptions = {}): string {
  const width = options.valueWidth ?? 160;
  // Free text is quoted; arguments (JSON already) and other values are printed as they are.
  const value = (kept: Kept<unknown>) => oneLine(kept, width, false);
  const quoted = (kept: Kept<unknown>) => oneLine(kept, width, true);
  const lines: string[] = [];

  lines.push(`Run ${record.runId} · agent ${record.agentId} · thread ${record.threadId} · user ${record.userId}`);
  lines.push(`${record.status}${endedAs(record)} · ${timeSpan(record.createdAt, record.finishedAt)}${record.traceId ? ` · trace ${record.traceId}` : ""}`);
  if (!record.complete) {
    lines.push(
      record.incomplete
        ? `INCOMPLETE RECORD (${record.incomplete.code}): ${record.incomplete.message}`
        : record.status === "running"
          ? "Incomplete record: the run is still going."
          : "INCOMPLETE RECORD: it stops where the store did.",
    );
  }

  lines.push("", "Started by");
  lines.push(`  ${describeTrigger(record.start)}`);
  if (record.start.previousRunId) lines.push(`  previous run: ${record.start.previousRunId}`);
  lines.push(`  next runs: ${record.start.nextRunIds.length > 0 ? record.start.nextRunIds.join(", ") : "none"}`);

  const offered = record.input.tools.filter((tool) => tool.decision === "offered");
  const left = record.input.tools.filter((tool) => tool.decision !== "offered");
  lines.push("", "Given to the agent");
  lines.push(`  ${plural(record.input.messageCount, "message")} (${record.input.newMessageIds.length} new)`);
  lines.push(`  tools offered: ${offered.length > 0 ? offered.map((tool) => `${tool.name} [${tool.location}]`).join(", ") : "none"}`);
  for (const tool of left)
    lines.push(`  ${tool.decision}: ${tool.name} [${tool.location}]${tool.reason ? `: ${tool.reason.code}: ${tool.reason.message}` : ""}`);
  if (record.input.surfaceCatalogs.length > 0) lines.push(`  surface catalogs: ${record.input.surfaceCatalogs.join(", ")}`);

  lines.push("", `Model calls (${record.modelCalls.length})`);
  if (record.modelCalls.length === 0) lines.push("  none");
  for (const call of record.modelCalls) lines.push(...formatModelCall(call, value, quoted, (toolCallId) => pendingOutcome(toolCallId, record, options, value)));

  const approvals = approvalsOf(record, options.nextRecords);
  if (approvals.length > 0) {
    lines.push("", "Approvals");
    for (const approval of approvals) {
      const answer = describeAnswer(approval.answer);
      lines.push(
        `  ${approval.interruptId}: ${approval.toolName} ${value(approval.arguments)} → ${answer}${approval.answer ? ` (run ${approval.answer.runId})` : ""}`,
      );
    }
  }

  const attempts = record.modelCalls.flatMap((call) => call.surfaces);
  if (attempts.length > 0 || record.output.surfaces.length > 0) {
    lines.push("", "Surfaces");
    for (const attempt of attempts) {
      lines.push(`  ${attempt.surfaceId}: attempt ${attempt.attempt}/${attempt.maxAttempts} ${attempt.verdict}`);
      for (const error of attempt.errors) lines.push(`    ${error.code} at ${error.path || "/"}: ${error.message}`);
    }
    for (const surface of record.output.surfaces) lines.push(`  final ${surface.surfaceId ?? surface.messageId}: ${surface.status} ${value(surface.content)}`);
  }

  lines.push("", `Browser reports (${record.reports.length})`);
  if (record.reports.length === 0) lines.push("  none");
  for (const report of record.reports) {
    const about = [report.toolName, report.toolCallId && `(${report.toolCallId})`, report.surfaceId && `surface ${report.surfaceId}`].filter(Boolean).join(" ");
    lines.push(
      `  ${clock(report.receivedAt)} ${report.kind}${about ? ` ${about}` : ""}: ${value(report.body)}${report.ledToRunId ? ` → led to run ${report.ledToRunId}` : ""}`,
    );
  }

  const { output } = record;
  lines.push("", `Events sent (${output.eventCount}, last seq ${output.lastSeq})`);
  // Streamed parts come in runs (TEXT_MESSAGE_CONTENT ×40): one line per run of one type with the same ids; --json has each.
  for (const group of groupEvents(output.events)) {
    const [first, last] = [group[0]!, group.at(-1)!];
    const ids = [first.messageId && `message ${first.messageId}`, first.toolCallId && `tool call ${first.toolCallId}`].filter(Boolean).join(", ");
    const seqs = group.length === 1 ? String(first.seq) : `${first.seq}–${last.seq}`;
    lines.push(`  ${seqs.padStart(7)} ${first.type}${group.length > 1 ? ` ×${group.length}` : ""}${ids ? ` (${ids})` : ""}`);
  }
  if (output.next) lines.push(`  … more from seq ${output.next.afterSeq + 1} (tether record --json prints every page)`);

  lines.push("", `Outcome: ${outcomeLine(record)}`);
  if (record.usage) lines.push(`Usage: ${usageLine(record.usage)}`);
  return `${lines.map(visible).join("\n")}\n`;
}

function formatModelCall(
  call: RecordModelCall,
  value: (kept: Kept<unknown>) => string,
  quoted: (kept: Kept<unknown>) => string,
  pending: (toolCallId: string) => string,
): string[] {
  const timing = [call.firstTokenMs !== undefined ? `first token ${call.firstTokenMs} ms` : undefined, `total ${call.durationMs} ms`]
    .filter(Boolean)
    .join(", ");
  const lines = [
    `  ${call.step}. ${call.model.provider}/${call.model.modelId} · ${plural(call.messageCount, "message")}, ${plural(call.toolCount, "tool")} · ${timing}${
      call.usage ? ` · ${usageLine(call.usage)}` : ""
    }${call.finishReason ? ` · finish ${call.finishReason}` : ""}`,
  ];
  const text = keptText(call.text);
  if (text.text) lines.push(`     text: ${quoted(call.text)}`);
  for (const toolCall of call.toolCalls) {
    const result =
      toolCall.status === "result" || toolCall.status === "error"
        ? `${toolCall.status} ${toolCall.result !== undefined ? value(toolCall.result) : ""}`.trimEnd()
        : toolCall.status === "pending"
          ? pending(toolCall.toolCallId)
          : toolCall.status === "approval"
            ? `waits for approval ${toolCall.interruptId ?? ""}`.trimEnd()
            : "refused";
    const duration = toolCall.durationMs !== undefined ? ` (${toolCall.durationMs} ms)` : "";
    lines.push(`     tool ${toolCall.toolName} [${toolCall.location}] ${toolCall.toolCallId} ${value(toolCall.arguments)} → ${result}${duration}`);
  }
  if (call.error) lines.push(`     error ${call.error.code}: ${call.error.message}`);
  const provider = call.error?.provider;
  if (provider) lines.push(`     the provider answered ${providerAnswer(provider)}; its own words are in the server's log`);
  if (call.upstream) lines.push(`     ${upstreamLine(call.upstream)}`);
  return lines;
}

/** How many events an upstream agent sent in the call, and how many Tether set aside; the events themselves are in --json. */
function upstreamLine(upstream: NonNullable<RecordModelCall["upstream"]>): string {
  const setAside = upstream.events.filter((entry) => entry.ignored !== undefined).length + (upstream.leftOut?.ignored ?? 0);
  const leftOut = upstream.leftOut ? `, ${upstream.leftOut.count} past the record's caps not kept` : "";
  return `the upstream sent ${plural(upstream.received, "event")}${setAside > 0 ? ` (${setAside} set aside)` : ""}${leftOut}; --json prints them`;
}

/** A browser call's outcome as far as the records say: reported to this run, sent with a next run, or not yet. */
function pendingOutcome(toolCallId: string, record: RunRecordDocument, options: TimelineOptions, value: (kept: Kept<unknown>) => string): string {
  const outcome = browserOutcomeOf(toolCallId, record, options.nextRecords);
  if (!outcome) return "in the browser, no outcome yet";
  if (outcome.from === "report") return `in the browser, reported ${value(outcome.body)}`;
  return `in the browser, outcome sent with run ${outcome.runId}: ${value(outcome.content)}`;
}

function describeTrigger(start: RecordStart): string {
  const { trigger } = start;
  const label = TRIGGER_LABELS[trigger.kind] ?? trigger.kind;
  switch (trigger.kind) {
    case "user-message":
      return `${label}${trigger.messageId ? ` (${trigger.messageId})` : ""}`;
    case "tool-result":
      return `${label}: ${(trigger.toolCallIds ?? []).join(", ")}`;
    case "resume":
      return `${label}: ${(trigger.answers ?? []).map((answer) => `${answer.interruptId} ${describeAnswer({ ...answer, runId: "" })}`).join(", ")}`;
    case "ui-action":
      return trigger.action ? `${label}: ${trigger.action.name} on ${trigger.action.surfaceId} (component ${trigger.action.sourceComponentId})` : label;
    default:
      return label;
  }
}

function endedAs(record: RunRecordDocument): string {
  if (record.error) return ` (${record.error.code})`;
  return record.outcome ? ` (${record.outcome.type})` : "";
}

function outcomeLine(record: RunRecordDocument): string {
  if (record.error) return `error ${record.error.code}: ${record.error.message}`;
  const { outcome } = record;
  if (!outcome) return record.status === "running" ? "still running" : "none recorded";
  const parts: string[] = [outcome.type];
  if (outcome.pendingToolCallIds?.length) parts.push(`waiting for the browser: ${outcome.pendingToolCallIds.join(", ")}`);
  if (outcome.interruptIds?.length) parts.push(`waiting for approval: ${outcome.interruptIds.join(", ")}`);
  return parts.join(", ");
}

function usageLine(usage: NonNullable<RunRecordDocument["usage"]>): string {
  const parts = [usage.inputTokens !== undefined && `${usage.inputTokens} in`, usage.outputTokens !== undefined && `${usage.outputTokens} out`].filter(Boolean);
  return parts.length > 0 ? `${parts.join(" / ")} tokens` : "tokens not reported";
}

type SentEvent = RunRecordDocument["output"]["events"][number];

function groupEvents(events: SentEvent[]): SentEvent[][] {
  const groups: SentEvent[][] = [];
  for (const event of events) {
    const last = groups.at(-1)?.[0];
    const same = last && last.type === event.type && last.messageId === event.messageId && last.toolCallId === event.toolCallId;
    if (same) groups.at(-1)!.push(event);
    else groups.push([event]);
  }
  return groups;
}

function oneLine(kept: Kept<unknown>, width: number, quote: boolean): string {
  const { text, cut } = keptText(kept);
  const flat = text.replace(/\s*\n\s*/g, " ");
  const shown = flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
  const printed = quote ? JSON.stringify(shown) : shown;
  return cut ? `${printed} [${describeCut(cut)}]` : printed;
}

/**
 * Control characters (escape sequences, C1 codes) and bidirectional overrides
 * as visible `\\uXXXX`: a record holds what a model and a browser wrote, and
 * printed as they are they would drive the reader's terminal (retitle it,
 * clear it, hide or reorder what it shows).
 */
function visible(line: string): string {
  return line.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function timeSpan(from: string, to: string | undefined): string {
  const start = `${from.slice(0, 10)} ${clock(from)}`;
  if (!to) return `started ${start} UTC`;
  const ms = Date.parse(to) - Date.parse(from);
  return `${start} → ${clock(to)} UTC (${Number.isFinite(ms) ? duration(ms) : "?"})`;
}

function clock(iso: string): string {
  return iso.slice(11, 19);
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A provider's error as the record has it: its status and the kind of failure, never its words. */
function providerAnswer(provider: { statusCode?: number; failure?: string }): string {
  const status = provider.statusCode ? `HTTP ${provider.statusCode}` : "an error";
  return provider.failure ? `${status} (${provider.failure})` : status;
}
