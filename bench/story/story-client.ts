import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import type { Message, ToolCall } from "@ag-ui/core";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";

const TOOLS = [toAgUiTool(navigateToScreen)];
const OPENED = "Work request list is open now.";

/**
 * The two-turn Workdesk story on Node's own HTTP client: requests equivalent
 * to the reference AG-UI client's (bench/instances/story-client.ts) for a
 * fraction of its CPU, so that one client process can keep a server busy.
 * Each run's SSE body is read whole and folded into the thread's messages
 * as `@ag-ui/client` folds its events.
 */
export function createStoryClient(url: string, token: string, concurrency: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const run = (threadId: string, messages: Message[]) =>
    new Promise<unknown[]>((resolve, reject) => {
      const body = JSON.stringify({ threadId, runId: randomUUID(), messages, tools: TOOLS, state: {}, context: [], forwardedProps: {} });
      const call = request(
        `${url}/api/agents/workdesk/run`,
        { method: "POST", agent, headers: { "content-type": "application/json", accept: "text/event-stream", authorization: `Bearer ${token}` } },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () => {
            if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}: ${text.slice(0, 300)}`));
            else resolve(parseSseFrames(text).map((frame) => frame.data));
          });
          response.on("error", reject);
        },
      );
      call.on("error", reject);
      call.end(body);
    });

  /** Plays one story; resolves with its duration in ms, rejects when it went wrong. */
  return async function playStory(): Promise<number> {
    const started = performance.now();
    const threadId = `bench-${randomUUID()}`;
    const messages: Message[] = [{ id: randomUUID(), role: "user", content: "open the work request list" }];
    fold(messages, await run(threadId, messages));
    const call = messages
      .flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))
      .find((c) => c.function.name === "navigateToScreen");
    if (!call) throw new Error(`run 1 asked for no navigation: ${JSON.stringify(messages.at(-1))}`);
    messages.push({ id: randomUUID(), role: "tool", toolCallId: call.id, content: JSON.stringify({ status: "succeeded", stage: "displayed" }) });
    fold(messages, await run(threadId, messages));
    const last = messages.at(-1);
    if (last?.role !== "assistant" || last.content !== OPENED) throw new Error(`run 2 answered ${JSON.stringify(last)}`);
    return performance.now() - started;
  };
}

/** Adds a run's messages to the thread's, as the reference client's event folding does; throws on a run that failed. */
function fold(messages: Message[], events: unknown[]): void {
  const assistant = (id: string) => {
    let message = messages.find((candidate) => candidate.id === id);
    if (!message) messages.push((message = { id, role: "assistant" }));
    return message as Extract<Message, { role: "assistant" }>;
  };
  const calls = new Map<string, ToolCall>();
  for (const event of events as Array<Record<string, string>>) {
    switch (event.type) {
      case "TEXT_MESSAGE_START":
        assistant(event.messageId!);
        break;
      case "TEXT_MESSAGE_CONTENT":
        {
          const message = assistant(event.messageId!);
          message.content = (message.content ?? "") + event.delta!;
        }
        break;
      case "TOOL_CALL_START": {
        const call: ToolCall = { id: event.toolCallId!, type: "function", function: { name: event.toolCallName!, arguments: "" } };
        const message = assistant(event.parentMessageId ?? event.toolCallId!);
        message.toolCalls = [...(message.toolCalls ?? []), call];
        calls.set(call.id, call);
        break;
      }
      case "TOOL_CALL_ARGS":
        calls.get(event.toolCallId!)!.function.arguments += event.delta!;
        break;
      case "TOOL_CALL_RESULT":
        messages.push({ id: event.messageId!, role: "tool", toolCallId: event.toolCallId!, content: event.content! });
        break;
      case "RUN_ERROR":
        throw new Error(`the run failed: ${event.code}: ${event.message}`);
    }
  }
  if ((events.at(-1) as { type?: string } | undefined)?.type !== "RUN_FINISHED") throw new Error("the run's stream did not end with RUN_FINISHED");
}
