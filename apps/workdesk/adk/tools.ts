import type { BaseTool } from "@google/adk";
import { TetherError } from "@tether-agent/tether/protocol";
import type { ServerTool } from "@tether-agent/tether/server";
import { z } from "zod";
import { closeWorkRequestParameters, closeWorkRequestTool } from "../agent/close-work-request.ts";
import { workdeskTools } from "../agent/tools.ts";
import type { WorkdeskUser, WorkRequestRepository } from "../agent/index.ts";
import { toAdkTool } from "./adk-tool.ts";

/** The arguments of each tool, as zod objects for ADK; the same shapes as the Tether tools' (tools.json, close-work-request.ts). */
export const WORKDESK_ADK_PARAMETERS = {
  lookupScreens: z
    .object({
      query: z.string().min(1).max(200).describe('What the user wants to see, in their words: "work request list", "approvals", "R-1042".'),
    })
    .strict(),
  searchWorkRequests: z
    .object({
      query: z.string().max(200).optional().describe('Words to match, such as "badge reader" or "R-1042".'),
      status: z.enum(["open", "in_progress", "waiting_approval", "closed"]).optional(),
    })
    .strict(),
  closeWorkRequest: closeWorkRequestParameters,
};

type ArgumentsOf<Name extends keyof typeof WORKDESK_ADK_PARAMETERS> = z.infer<(typeof WORKDESK_ADK_PARAMETERS)[Name]>;

/**
 * The Workdesk agent's server tools as ADK tools, made from the Tether tools
 * themselves (see toAdkTool): the lookup and the search read only what the
 * user may see, and closeWorkRequest asks for approval as the Tether tool does.
 */
export function workdeskAdkTools(requests: WorkRequestRepository): BaseTool[] {
  const catalog = new Map(workdeskTools(requests).map((tool) => [tool.name, tool]));
  // The catalog's tools take their arguments as tools.json declares them; ADK checks each call against the zod shape first.
  const fromCatalog = <Name extends "lookupScreens" | "searchWorkRequests">(name: Name) => {
    const tool = catalog.get(name);
    if (!tool) throw new TetherError("config_invalid", `The Workdesk tool catalog has no ${name}, which the ADK agent serves.`);
    return tool as ServerTool<ArgumentsOf<Name>, WorkdeskUser>;
  };
  return [
    toAdkTool(fromCatalog("lookupScreens"), WORKDESK_ADK_PARAMETERS.lookupScreens),
    toAdkTool(fromCatalog("searchWorkRequests"), WORKDESK_ADK_PARAMETERS.searchWorkRequests),
    toAdkTool(closeWorkRequestTool(requests), WORKDESK_ADK_PARAMETERS.closeWorkRequest),
  ];
}
