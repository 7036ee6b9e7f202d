import { randomBytes } from "node:crypto";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createPlaybookModel, defineAgent, type Agent, type PlaybookModelOptions } from "@tether-agent/tether/server";
import { listen } from "@tether-agent/tether/node";
import { isWorkdeskUser, navigateToScreen, workdeskPlaybook, type WorkRequestRepository } from "../agent/index.ts";
import { aiSdkWorkdeskAgent } from "./ai-sdk-agent.ts";

export interface WorkdeskUpstream {
  /** The demo agent `workdesk-upstream`: Tether in front of the AI SDK agent. */
  agent: Agent;
  /** Where the AI SDK agent listens (a loopback port of its own). */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the Workdesk story's AI SDK agent on a loopback port of its own, as a
 * team's existing agent would run beside Tether, and defines the Tether agent
 * in front of it: the same page, the same browser tool, Tether's guarantees.
 */
export async function startWorkdeskUpstream(options: {
  model?: LanguageModelV3;
  playbook?: PlaybookModelOptions;
  requests: WorkRequestRepository;
}): Promise<WorkdeskUpstream> {
  const token = randomBytes(24).toString("base64url");
  const model = options.model ?? createPlaybookModel(workdeskPlaybook, options.playbook);
  const server = await listen(aiSdkWorkdeskAgent({ model, requests: options.requests, token }), { port: 0, host: "127.0.0.1" });
  const agent = defineAgent({
    id: "workdesk-upstream",
    description: "The Workdesk assistant as an agent written with the AI SDK, served over AG-UI, with Tether in front.",
    // Only Tether may ask it, and it is told who is asking: its lookup keeps to that user's screens.
    upstream: { url: server.url, headers: (user) => ({ authorization: `Bearer ${token}`, "x-workdesk-user": user.id }) },
    browserTools: [navigateToScreen],
    browserToolPolicy: "strict",
    history: "server",
    allowUser: isWorkdeskUser,
    welcome: { greeting: "I am the Workdesk assistant, served by an agent Tether does not run.", suggestions: ["open the work request list"] },
  });
  return { agent, url: server.url, close: () => server.close() };
}
