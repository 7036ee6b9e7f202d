import { EventEncoder } from "@ag-ui/encoder";
import { EventSchemas } from "@ag-ui/core/schemas";
import { EventType, type BaseEvent } from "@ag-ui/core";

/** The browser tool the Tether contender registers; its calls are executed by the runner. */
export const BROWSER_TOOL = "navigate_to_screen";
/** Server tools: their calls arrive with results, and the runner must not execute them. */
const SERVER_TOOLS = ["search_records", "lookup_screen"];

/** One run's SSE body and what the reference client should build from it. */
export interface RunStream {
  runId: string;
  /** `id: <runId>:<seq>\ndata: <json>\n\n` frames, exactly as Tether's server writes them. */
  bytes: Uint8Array;
  events: number;
  /** Browser tool calls in this run (the runner executes each once). */
  browserCalls: string[];
}

export interface Workload {
  threadId: string;
  runs: RunStream[];
  bytes: number;
  events: number;
  browserCalls: number;
  serverCalls: number;
  textDeltas: number;
  eventsByType: Map<string, number>;
}

/** A small deterministic PRNG (mulberry32), so every run of the benchmark sees the same bytes. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the work request list is open now you can filter by status owner or due date " +
  "I found three open requests for the pump station two are overdue and one waits for parts " +
  "would you like me to close the oldest one or assign it to the maintenance team " +
  "here is what I can do open a screen search records and summarize what changed since yesterday"
).split(" ");

/**
 * A thread of realistic runs (turns) adding up to about `targetBytes` of SSE.
 * Each run: RUN_STARTED (with its user message), a text message streamed as
 * token-sized deltas, one or two server tool calls with chunked arguments and
 * a JSON result, a second text message, and — every few runs — a browser
 * tool call the run stops on (`pendingToolCallIds`), as Tether's run loop
 * emits them. Every event is checked against @ag-ui/core's schemas once.
 */
export function buildWorkload(targetBytes: number, seed = 42): Workload {
  const random = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const token = () => Array.from({ length: 12 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[int(0, 35)]).join("");
  const id = (prefix: string) => `${prefix}_${token()}`;
  const uuid = () => `${token().slice(0, 8)}-${token().slice(0, 4)}-4${token().slice(0, 3)}-a${token().slice(0, 3)}-${token()}`;
  const encoder = new EventEncoder();
  const textEncoder = new TextEncoder();
  const threadId = uuid();

  const runs: RunStream[] = [];
  const eventsByType = new Map<string, number>();
  let bytes = 0;
  let events = 0;
  let serverCalls = 0;
  let textDeltas = 0;
  let browserCallCount = 0;

  while (bytes < targetBytes) {
    const runId = uuid();
    const index = runs.length;
    let seq = 0;
    let body = "";
    const browserCalls: string[] = [];
    const emit = (event: Record<string, unknown>) => {
      const parsed = EventSchemas.safeParse(event);
      if (!parsed.success) throw new Error(`Generated an invalid ${String(event.type)} event: ${parsed.error.message}`);
      body += `id: ${runId}:${++seq}\n${encoder.encodeSSE(event as unknown as BaseEvent)}`;
      eventsByType.set(event.type as string, (eventsByType.get(event.type as string) ?? 0) + 1);
    };
    const text = (messageId: string, tokens: number) => {
      emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" });
      for (let i = 0; i < tokens; i++) {
        // Token-sized deltas, as providers stream them: a word, sometimes with punctuation.
        const word = pick(WORDS);
        emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: i === 0 ? word : random() < 0.08 ? `${word}.` : ` ${word}` });
      }
      textDeltas += tokens;
      emit({ type: EventType.TEXT_MESSAGE_END, messageId });
    };
    const toolCall = (name: string, parentMessageId: string, args: string) => {
      const toolCallId = id("call");
      emit({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: name, parentMessageId });
      // Arguments arrive in small pieces, like a provider streams JSON.
      for (let at = 0; at < args.length;) {
        const size = int(3, 12);
        emit({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: args.slice(at, at + size) });
        at += size;
      }
      emit({ type: EventType.TOOL_CALL_END, toolCallId });
      return toolCallId;
    };

    const userMessage = { id: id("msg"), role: "user", content: `question ${index}: ${Array.from({ length: int(5, 25) }, () => pick(WORDS)).join(" ")}` };
    emit({ type: EventType.RUN_STARTED, threadId, runId, input: { threadId, runId, messages: [userMessage], tools: [], context: [] } });

    // Step 1: some text, then server tools with their results.
    const first = id("msg");
    text(first, int(80, 300));
    for (let k = int(1, 2); k > 0; k--) {
      const name = pick(SERVER_TOOLS);
      const args = JSON.stringify({
        query: Array.from({ length: int(2, 6) }, () => pick(WORDS)).join(" "),
        status: pick(["open", "overdue", "closed"]),
        limit: int(5, 50),
      });
      const toolCallId = toolCall(name, first, args);
      const rows = Array.from({ length: int(3, 12) }, (_, row) => ({
        id: `WR-${int(1000, 9999)}`,
        title: Array.from({ length: int(3, 8) }, () => pick(WORDS)).join(" "),
        status: pick(["open", "overdue"]),
        row,
      }));
      emit({ type: EventType.TOOL_CALL_RESULT, messageId: id("msg"), toolCallId, role: "tool", content: JSON.stringify({ total: rows.length, rows }) });
      serverCalls++;
    }

    // Step 2: the answer, and every fourth run a browser call the run stops on.
    const second = id("msg");
    text(second, int(200, 800));
    if (index % 4 === 1) {
      browserCalls.push(toolCall(BROWSER_TOOL, second, JSON.stringify({ screenId: `MNU-${int(1000, 9999)}`, reason: "the user asked for it" })));
      browserCallCount++;
    }
    emit({
      type: EventType.RUN_FINISHED,
      threadId,
      runId,
      outcome: browserCalls.length > 0 ? { type: "success", pendingToolCallIds: browserCalls } : { type: "success" },
    });

    const encoded = textEncoder.encode(body);
    runs.push({ runId, bytes: encoded, events: seq, browserCalls });
    bytes += encoded.length;
    events += seq;
  }
  return { threadId, runs, bytes, events, browserCalls: browserCallCount, serverCalls, textDeltas, eventsByType };
}

/**
 * A `fetch` for HttpAgentConfig that answers every request with the next
 * run's bytes, in chunks of `chunkSize`, handed out one per read like a
 * socket would — no network, so only parsing and applying are measured.
 */
export function replayFetch(bodies: Iterable<Uint8Array>, chunkSize: number) {
  const iterator = bodies[Symbol.iterator]();
  return async (_url: string, _init: RequestInit): Promise<Response> => {
    const next = iterator.next();
    if (next.done) throw new Error("replayFetch: more requests than prepared bodies.");
    const bytes = next.value;
    let offset = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, offset + chunkSize));
        offset += chunkSize;
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}
