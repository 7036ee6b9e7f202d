import type { Message, RunAgentInput, Tool } from "@ag-ui/core";
import type { RunRecordDocument, ThreadRunChain } from "@tether-agent/tether/protocol";
import { parseSseFrames, type SseFrame } from "@tether-agent/tether/testing";

/** A client of one server that runs turns and reads records, signed in per call. */
export interface RecordClient {
  run(
    user: string,
    agentId: string,
    input: Partial<RunAgentInput> & { threadId: string; runId: string },
    headers?: Record<string, string>,
  ): Promise<SseFrame[]>;
  report(user: string, runId: string, report: unknown): Promise<number>;
  record(user: string, runId: string, query?: string): Promise<{ status: number; body: RunRecordDocument }>;
  chain(user: string, threadId: string): Promise<{ status: number; body: ThreadRunChain }>;
}

export function recordClient(url: string, token: (user: string) => string): RecordClient {
  const auth = (user: string) => ({ Authorization: `Bearer ${token(user)}` });
  return {
    async run(user, agentId, input, headers = {}) {
      const body: RunAgentInput = { messages: [], tools: [], context: [], state: {}, forwardedProps: {}, ...input };
      const response = await fetch(`${url}/api/agents/${agentId}/run`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...auth(user), ...headers },
        body: JSON.stringify(body),
      });
      if (response.status !== 200) throw new Error(`run ${input.runId}: ${response.status} ${await response.text()}`);
      return parseSseFrames(await response.text());
    },
    async report(user, runId, report) {
      const response = await fetch(`${url}/api/runs/${runId}/reports`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...auth(user) },
        body: JSON.stringify(report),
      });
      return response.status;
    },
    async record(user, runId, query = "") {
      const response = await fetch(`${url}/api/runs/${runId}/record${query}`, { headers: auth(user) });
      return { status: response.status, body: await response.json() };
    },
    async chain(user, threadId) {
      const response = await fetch(`${url}/api/threads/${threadId}/runs`, { headers: auth(user) });
      return { status: response.status, body: await response.json() };
    },
  };
}

/** The tool calls a run's stream started, by name. */
export function startedCalls(frames: SseFrame[]): Array<{ toolCallId: string; toolCallName: string }> {
  return frames.filter((frame) => frame.data.type === "TOOL_CALL_START").map((frame) => frame.data as { toolCallId: string; toolCallName: string });
}

export const userMessage = (id: string, content: string): Message => ({ id, role: "user", content });
export const toolMessage = (id: string, toolCallId: string, content: unknown): Message => ({ id, role: "tool", toolCallId, content: JSON.stringify(content) });
export type { Tool };
