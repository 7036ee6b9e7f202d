import type { RunAgentInput } from "@ag-ui/core";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";

/** The server under soak and a sign-in for each user the traffic plays. */
export interface SoakTarget {
  url: string;
  tokens: { kim: string; lee: string };
}

/** A failure of the traffic itself (a wrong answer, a stream that ends badly), as opposed to a bug of the benchmark. */
export class TrafficError extends Error {}

const TOOLS = [toAgUiTool(navigateToScreen)];

/** A user's turn as the Workdesk's browser sends it: the user's message and the browser tool it offers. */
export function userTurn(threadId: string, runId: string, text: string): RunAgentInput {
  return { threadId, runId, messages: [{ id: `${runId}-user`, role: "user", content: text }], tools: TOOLS, context: [], state: {}, forwardedProps: {} };
}

/** POSTs to the server as the user, with the JSON body; throws a TrafficError on a status other than `expect`. */
export async function post(target: SoakTarget, user: keyof SoakTarget["tokens"], path: string, body: unknown, expect = 200): Promise<Response> {
  const response = await fetch(`${target.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${target.tokens[user]}` },
    body: JSON.stringify(body),
  });
  if (response.status !== expect)
    throw new TrafficError(`POST ${path.replace(/[0-9a-f-]{36}/g, "<id>")}: HTTP ${response.status} ${(await response.text()).slice(0, 160)}`);
  return response;
}
