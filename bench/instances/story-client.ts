import { randomUUID } from "node:crypto";
import { HttpAgent } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";

const TOOLS = [toAgUiTool(navigateToScreen)];
const ANSWER = "Work request list is open now.";

/**
 * The two-turn Workdesk story as a browser plays it, through the reference
 * AG-UI client: kim asks to open the work request list (run 1 ends with the
 * browser's navigateToScreen call), the browser reports it displayed, and
 * run 2 answers. Resolves with its duration; rejects when the story went wrong.
 */
export async function playStory(url: string, token: string): Promise<number> {
  const started = performance.now();
  const agent = new HttpAgent({ url: `${url}/api/agents/workdesk/run`, headers: { Authorization: `Bearer ${token}` }, threadId: `bench-${randomUUID()}` });
  agent.addMessage({ id: randomUUID(), role: "user", content: "open the work request list" });
  await agent.runAgent({ tools: TOOLS, runId: randomUUID() });
  const call = agent.messages
    .flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))
    .find((candidate) => candidate.function.name === "navigateToScreen");
  if (!call) throw new Error(`run 1 asked for no navigation: ${JSON.stringify(agent.messages.at(-1))}`);
  agent.addMessage({ id: randomUUID(), role: "tool", toolCallId: call.id, content: JSON.stringify({ status: "succeeded", stage: "displayed" }) });
  await agent.runAgent({ tools: TOOLS, runId: randomUUID() });
  const last = agent.messages.at(-1);
  if (last?.role !== "assistant" || last.content !== ANSWER) throw new Error(`run 2 answered ${JSON.stringify(last)}`);
  return performance.now() - started;
}

/** Plays `count` stories, `concurrency` at a time; what it measured. */
export async function playStories(url: string, token: string, count: number, concurrency: number) {
  const durations: number[] = [];
  const errors: string[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      await playStory(url, token).then(
        (ms) => durations.push(ms),
        (error: unknown) => errors.push(error instanceof Error ? error.message : String(error)),
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  const at = (fraction: number) => durations[Math.min(durations.length - 1, Math.floor(durations.length * fraction))] ?? Number.NaN;
  return { storiesPerSecond: durations.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99), errors };
}
