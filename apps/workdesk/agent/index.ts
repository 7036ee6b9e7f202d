import { createPlaybookModel, defineAgent, type Agent, type PlaybookModelOptions } from "@tether-agent/tether/server";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { workdeskInstructions } from "./instructions.ts";
import { navigateToScreen } from "./navigate-to-screen.ts";
import { workdeskPlaybook } from "./playbook.ts";
import { closeWorkRequestTool } from "./close-work-request.ts";
import { workdeskTools } from "./tools.ts";
import { isWorkdeskUser } from "./users.ts";
import type { WorkRequestRepository } from "./work-request-repository.ts";

export interface WorkdeskAgentOptions {
  /** A real model; without one the agent runs on the offline Workdesk playbook. */
  model?: LanguageModelV3;
  playbook?: PlaybookModelOptions;
  /** The records its tools read and close; the host opens them (the demo: in its data folder). */
  requests: WorkRequestRepository;
  /** The tool declarations, for tests of a broken catalog. Default: tools.json. */
  toolCatalog?: unknown;
  /** How long an approval may wait; default 15 minutes. */
  approvalTimeoutMs?: number;
  /** Generated UI ("show R-1042 as a card", A2UI surfaces in the panel); on unless `false`. */
  generatedUi?: boolean;
}

/**
 * The Workdesk agent: server history (the stored thread is the reference) and
 * a strict browser-tool allow-list with one follow-up tool, navigateToScreen.
 */
export function createWorkdeskAgent(options: WorkdeskAgentOptions): Agent {
  const { requests } = options;
  return defineAgent({
    id: "workdesk",
    description: "Work-request assistant: finds screens and opens them, searches and closes work requests.",
    model: options.model ?? createPlaybookModel(workdeskPlaybook, options.playbook),
    instructions: workdeskInstructions,
    tools: [...workdeskTools(requests, options.toolCatalog), closeWorkRequestTool(requests)],
    browserTools: [navigateToScreen],
    browserToolPolicy: "strict",
    history: "server",
    allowUser: isWorkdeskUser,
    welcome: (user) => ({
      greeting: `Hi ${user.displayName.split(" ")[0]}. I can open the screens you have access to, find work requests, and close them once you approve.`,
      suggestions: ["open the work request list", "find badge reader requests", "show R-1042 as a card"],
    }),
    ...(options.generatedUi !== false ? { generatedUi: true } : {}),
    ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
  });
}

export { WORKDESK_USERS, isWorkdeskUser, type WorkdeskUser } from "./users.ts";
export { workdeskRecordReaders } from "./record-readers.ts";
export { SCREENS, breadcrumb, screenById, screensFor, type Screen } from "./screens.ts";
export type { CloseWorkRequestResult, WorkRequestQuery, WorkRequestRepository } from "./work-request-repository.ts";
export {
  createSqliteWorkRequestRepository,
  type SqliteWorkRequestRepository,
  type SqliteWorkRequestRepositoryOptions,
} from "./sqlite-work-request-repository.ts";
export { createPgWorkRequestRepository, type PgWorkRequestRepositoryOptions } from "./pg-work-request-repository.ts";
export { seedWorkRequests, type WorkRequest, type WorkRequestStatus } from "./work-requests.ts";
export { navigateToScreen, type NavigateToScreenArgs } from "./navigate-to-screen.ts";
export { NAVIGATION_REASONS, NAVIGATION_STAGES, type NavigationOutcome, type NavigationReason, type NavigationStage } from "./navigation-outcome.ts";
export { workdeskPlaybook } from "./playbook.ts";
