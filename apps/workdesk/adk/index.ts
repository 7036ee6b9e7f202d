/**
 * The Workdesk story on Google's Agent Development Kit: an ADK `LlmAgent`
 * (its model, instructions and tools ADK's) served by Tether as the demo
 * agent `workdesk-adk`. Importing `@google/adk` takes seconds, so the demo
 * server imports this module once, at start, and nothing else does.
 *
 * @module
 */
import { LlmAgent, LogLevel, setLogLevel, type BaseLlm } from "@google/adk";
import { adkToolScope, defineAdkAgent, type PlaybookLlmOptions } from "@tether-agent/tether/adk";
import type { Agent } from "@tether-agent/tether/server";
import { closeWorkRequestTool } from "../agent/close-work-request.ts";
import { workdeskInstructions } from "../agent/instructions.ts";
import { isWorkdeskUser, navigateToScreen, type WorkdeskUser, type WorkRequestRepository } from "../agent/index.ts";
import { workdeskAdkModel } from "./adk-model.ts";
import { workdeskAdkTools } from "./tools.ts";

// ADK logs every run (its plugins, each model call) at INFO, which would bury the demo's own log; its warnings still show.
setLogLevel(LogLevel.WARN);

export interface WorkdeskAdkAgentOptions {
  /** The records its tools read and close: the same repository as the other Workdesk agents'. */
  requests: WorkRequestRepository;
  /** An ADK model; without one, the environment decides (see workdeskAdkModel). */
  model?: BaseLlm;
  /** Read for `TETHER_ADK_MODEL`, `GOOGLE_API_KEY` and `GOOGLE_GEMINI_BASE_URL`. Default: none, the offline playbook. */
  env?: Record<string, string | undefined>;
  /** How the offline playbook streams (tests: no pauses). */
  playbook?: PlaybookLlmOptions;
  /** How long an approval may wait; default 15 minutes. */
  approvalTimeoutMs?: number;
}

/**
 * The Workdesk agent as an ADK agent, `workdesk-adk`: the same instructions,
 * the same server tools (made from the Tether tools, with the same rights
 * checks, see adk-tool.ts), `navigateToScreen` left to the browser, and
 * closing a request held by ADK for a person's approval, which Tether asks.
 */
export function createWorkdeskAdkAgent(options: WorkdeskAdkAgentOptions): Agent {
  const { requests } = options;
  const closeWorkRequest = closeWorkRequestTool(requests);
  const agent = new LlmAgent({
    name: "workdesk",
    description: "Work-request assistant on ADK: finds screens and opens them, searches and closes work requests.",
    model: options.model ?? workdeskAdkModel(options.env ?? {}, options.playbook),
    // Who the user is, per run: the scope Tether gives the run's tools gives the instructions too.
    instruction: (context) => workdeskInstructions(adkToolScope<WorkdeskUser>(context).user),
    tools: workdeskAdkTools(requests),
  });
  return defineAdkAgent<WorkdeskUser>({
    id: "workdesk-adk",
    agent,
    browserTools: [navigateToScreen],
    browserToolPolicy: "strict",
    history: "server",
    allowUser: isWorkdeskUser,
    approvals: { closeWorkRequest: { message: (args, user) => closeWorkRequest.approvalMessage!(args, user) } },
    welcome: (user) => ({
      greeting: `Hi ${user.displayName.split(" ")[0]}. I am the Workdesk assistant as an ADK agent: I can open the screens you have access to, find work requests, and close them once you approve.`,
      suggestions: ["open the work request list", "find badge reader requests", "take me to R-1042"],
    }),
    ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
  });
}

export { workdeskAdkModel } from "./adk-model.ts";
export { workdeskAdkTools, WORKDESK_ADK_PARAMETERS } from "./tools.ts";
