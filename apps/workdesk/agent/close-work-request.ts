import type { WorkdeskUser } from "./users.ts";
import { TetherError } from "@tether-agent/tether/protocol";
import { defineTool } from "@tether-agent/tether/server";
import { z } from "zod";
import type { WorkRequest } from "./work-requests.ts";
import type { WorkRequestRepository } from "./work-request-repository.ts";

/**
 * Closes a work request. Consequential, so a person approves every call that
 * would change something, and may change the resolution before approving.
 * Only requests of the user's organisation can be closed, and high-priority
 * ones only by managers: a call outside that is refused before anyone is
 * asked.
 *
 * A request that is already closed is not closed again: nobody is asked to
 * approve a close that would change nothing, and the result says
 * `alreadyClosed` with the first resolution and time. The same holds when it
 * was closed while the approval waited (another thread, a second approval):
 * the repository's close is atomic, so only one close ever changes it.
 */
/** What closeWorkRequest takes: the ADK agent's tool takes the same. */
export const closeWorkRequestParameters = z.object({
  requestId: z
    .string()
    .regex(/^R-\d{4}$/)
    .describe("The request's id, such as R-1042."),
  resolution: z.string().min(1).max(200).describe("How it was resolved, in a few words."),
});

export function closeWorkRequestTool(requests: WorkRequestRepository) {
  const notFound = (requestId: string, user: WorkdeskUser) =>
    new TetherError("forbidden", `There is no work request ${requestId} in ${user.orgScope}; search for it to find the right id.`);
  // The library's approval hooks are synchronous, hence getSync here and the awaited close in execute.
  const authorize = ({ requestId }: { requestId: string }, user: WorkdeskUser) => {
    const request = requests.getSync(user.orgScope, requestId);
    if (!request) throw notFound(requestId, user);
    if (request.priority === "high" && !user.roles.includes("manager")) {
      throw new TetherError("forbidden", `${request.id} is high priority: only a manager can close it.`);
    }
  };
  return defineTool({
    name: "closeWorkRequest",
    description:
      'Closes a work request of the user\'s organisation with a resolution (such as "fixed"). A person approves every call first: ' +
      "say you are asking for approval, and only say the request is closed once the result says so. If the result says alreadyClosed, " +
      "it was closed before (with the resolution and time given) and nothing changed. High-priority requests can only be closed by managers.",
    parameters: closeWorkRequestParameters,
    needsApproval: ({ requestId }, user) => requests.getSync(user.orgScope, requestId)?.status !== "closed",
    authorize,
    approvalMessage: ({ requestId, resolution }, user) => {
      const request = requests.getSync(user.orgScope, requestId);
      return `Close ${requestId}${request ? ` "${request.title}"` : ""} as "${resolution}"?`;
    },
    approvalFields: { properties: { resolution: { type: "string", minLength: 1, maxLength: 200, description: "Change the resolution before approving." } } },
    applyApproval: (args, answer) =>
      typeof answer.resolution === "string" && answer.resolution.trim() ? { ...args, resolution: answer.resolution.trim() } : args,
    execute: async ({ requestId, resolution }, { user }) => {
      const result = await requests.close(user.orgScope, requestId, resolution);
      switch (result.outcome) {
        case "not_found":
          throw notFound(requestId, user);
        case "already_closed":
          return { closed: false, alreadyClosed: true, ...described(result.request) };
        case "closed":
          return { closed: true, ...described(result.request) };
      }
    },
  });
}

/** What the model is told about the request after a close: its resolution and close time as stored, not as asked. */
function described(request: WorkRequest) {
  return {
    requestId: request.id,
    title: request.title,
    status: request.status,
    ...(request.resolution !== undefined ? { resolution: request.resolution } : {}),
    ...(request.closedAt !== undefined ? { closedAt: request.closedAt } : {}),
  };
}
