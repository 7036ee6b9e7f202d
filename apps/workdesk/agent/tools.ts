import { loadToolCatalog, type ServerTool, type ToolExecutors } from "@tether-agent/tether/server";
import { lookupScreens } from "./lookup-screens.ts";
import declarations from "./tools.json" with { type: "json" };
import type { WorkdeskUser } from "./users.ts";
import type { WorkRequestRepository } from "./work-request-repository.ts";
import type { WorkRequestStatus } from "./work-requests.ts";

/** The code behind each declaration in tools.json, bound by key. */
export function workdeskExecutors(requests: WorkRequestRepository): ToolExecutors<WorkdeskUser> {
  return {
    "workdesk.lookupScreens": ({ query }: { query: string }, { user }) => lookupScreens(query, user, requests),
    "workdesk.searchWorkRequests": async ({ query, status }: { query?: string; status?: WorkRequestStatus }, { user }) => {
      const found = await requests.list(user.orgScope, { ...(query ? { query } : {}), ...(status ? { status } : {}) });
      return {
        orgScope: user.orgScope,
        query: query ?? "",
        ...(status ? { status } : {}),
        total: found.length,
        requests: found.slice(0, 10).map(({ id, title, status, priority, requester, updatedAt }) => ({ id, title, status, priority, requester, updatedAt })),
      };
    },
  };
}

/** The Workdesk's server tools, loaded from their JSON declarations. */
export function workdeskTools(requests: WorkRequestRepository, declared: unknown = declarations): ServerTool<unknown, WorkdeskUser>[] {
  return loadToolCatalog(declared, workdeskExecutors(requests));
}
