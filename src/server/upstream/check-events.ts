import { EventType, type BaseEvent } from "@ag-ui/core";
import {
  RunErrorEventSchema,
  RunFinishedEventSchema,
  RunStartedEventSchema,
  TextMessageChunkEventSchema,
  TextMessageContentEventSchema,
  TextMessageEndEventSchema,
  TextMessageStartEventSchema,
  ToolCallArgsEventSchema,
  ToolCallChunkEventSchema,
  ToolCallEndEventSchema,
  ToolCallResultEventSchema,
  ToolCallStartEventSchema,
} from "@ag-ui/core/schemas";
import { defer, map, type Observable, type OperatorFunction } from "rxjs";
import { TetherError, formatIssues, type SchemaIssue } from "../../protocol/index.ts";

/** What one upstream run (one step of Tether's run) may send. */
export interface UpstreamLimits {
  /** Characters of assistant text and of its own tools' results. Default 1 MiB (1,048,576). */
  maxTextChars: number;
  /** Characters of tool-call arguments, all calls together. Default 256 KiB (262,144). */
  maxArgumentChars: number;
  /**
   * Events of any type. Default 100,000: a long answer streamed a token at a time is some thousands;
   * a million one-character deltas would each be stored and sent, well within the text cap.
   */
  maxEvents: number;
  /** Bytes of one SSE event (a `{ url }` upstream's). Default 4 MiB. */
  maxEventBytes: number;
}

export const DEFAULT_UPSTREAM_LIMITS: UpstreamLimits = { maxTextChars: 1_048_576, maxArgumentChars: 262_144, maxEvents: 100_000, maxEventBytes: 4_194_304 };

/** Longer tool call ids and names than this are no agent's: providers keep names to 64 characters, ids to a few dozen. */
const MAX_ID_CHARS = 256;

/** What Tether asks of an event's schema (zod's `safeParse`). */
interface EventSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ReadonlyArray<SchemaIssue> } };
}

/** The events Tether reads from an upstream, with the schema each must pass; the others it ignores unread. */
const READ = new Map<string, EventSchema>([
  [EventType.RUN_STARTED, RunStartedEventSchema],
  [EventType.RUN_FINISHED, RunFinishedEventSchema],
  [EventType.RUN_ERROR, RunErrorEventSchema],
  [EventType.TEXT_MESSAGE_START, TextMessageStartEventSchema],
  [EventType.TEXT_MESSAGE_CONTENT, TextMessageContentEventSchema],
  [EventType.TEXT_MESSAGE_END, TextMessageEndEventSchema],
  [EventType.TEXT_MESSAGE_CHUNK, TextMessageChunkEventSchema],
  [EventType.TOOL_CALL_START, ToolCallStartEventSchema],
  [EventType.TOOL_CALL_ARGS, ToolCallArgsEventSchema],
  [EventType.TOOL_CALL_END, ToolCallEndEventSchema],
  [EventType.TOOL_CALL_CHUNK, ToolCallChunkEventSchema],
  [EventType.TOOL_CALL_RESULT, ToolCallResultEventSchema],
]);

/**
 * Checks an upstream run's events before Tether reads them: each event it
 * reads must pass its `@ag-ui/core` schema (what the reference client's
 * `enforceEvents` asks), its tool call ids and names be of a sane length,
 * and the run keep within `limits`. An event that fails ends the upstream
 * run with `upstream_error`, before any of it is passed on: Tether never
 * guesses what a malformed event meant, and never half-applies one.
 */
export function checkUpstreamEvents(limits: UpstreamLimits): OperatorFunction<BaseEvent, BaseEvent> {
  return (events: Observable<BaseEvent>) =>
    defer(() => {
      // Counted per subscription: one upstream run.
      let text = 0;
      let args = 0;
      let count = 0;
      return events.pipe(
        map((event) => {
          if (++count > limits.maxEvents) throw overCap(`${limits.maxEvents} events`, "maxEvents");
          const schema = READ.get(event.type);
          if (!schema) return event;
          const checked = schema.safeParse(event);
          if (!checked.success) {
            throw new TetherError(
              "upstream_error",
              `The upstream agent sent a ${event.type} Tether could not read (${formatIssues(checked.error.issues, "(event)", 3)}).`,
            );
          }
          const fields = event as BaseEvent & { toolCallId?: string; toolCallName?: string; delta?: string; content?: unknown };
          for (const name of ["toolCallId", "toolCallName"] as const) {
            if ((fields[name]?.length ?? 0) > MAX_ID_CHARS) {
              throw new TetherError(
                "upstream_error",
                `The upstream agent sent a ${event.type} whose ${name} is longer than ${MAX_ID_CHARS} characters, which no agent makes.`,
              );
            }
          }
          switch (event.type) {
            case EventType.TEXT_MESSAGE_CONTENT:
            case EventType.TEXT_MESSAGE_CHUNK:
            case EventType.TOOL_CALL_RESULT: {
              text += event.type === EventType.TOOL_CALL_RESULT ? lengthOf(fields.content) : (fields.delta?.length ?? 0);
              if (text > limits.maxTextChars) throw overCap(`${limits.maxTextChars} characters of text and tool results`, "maxTextChars");
              break;
            }
            case EventType.TOOL_CALL_ARGS:
            case EventType.TOOL_CALL_CHUNK:
              args += fields.delta?.length ?? 0;
              if (args > limits.maxArgumentChars) throw overCap(`${limits.maxArgumentChars} characters of tool-call arguments`, "maxArgumentChars");
          }
          return event;
        }),
      );
    });
}

function lengthOf(content: unknown): number {
  return typeof content === "string" ? content.length : JSON.stringify(content ?? null).length;
}

function overCap(what: string, option: keyof UpstreamLimits): TetherError {
  return new TetherError(
    "upstream_error",
    `The upstream agent sent more than ${what} in one step (its upstream.limits.${option} cap), so the run was stopped.`,
  );
}
