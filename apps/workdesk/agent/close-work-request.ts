import { TetherError } from "tether/protocol";
import { defineTool, type TetherUser } from "tether/server";
import { z } from "zod";
import type { WorkRequestRepository } from "./work-request-repository.ts";

/**
 * Closes a work request. Consequential, so a person approves every call, and
 * may change the resolution before approving. Only requests of the user's
 * organisation can be closed, and high-priority ones only by managers: a call
 * outside that is refused before anyone is asked.
 */
export function closeWorkRequestTool(requests: WorkRequestRepository) {
  const authorize = ({ requestId }: { requestId: string }, user: TetherUser) => {
    const request = requests.get(user.orgScope, requestId);
    if (!request) throw new TetherError("forbidden", `There is no work request ${requestId} in ${user.orgScope}.`);
    if (request.status === "closed") throw new TetherError("forbidden", `${request.id} is already closed.`);
    if (request.priority === "high" && !user.roles.includes("manager")) {
      throw new TetherError("forbidden", `${request.id} is high priority: only a manager can close it.`);
    }
  };
  return defineTool({
    name: "closeWorkRequest",
    description:
      "Closes a work request of the user's organisation with a resolution (such as \"fixed\"). A person approves every call first: " +
      "say you are asking for approval, and only say the request is closed once the result says so. High-priority requests can only be closed by managers.",
    parameters: z.object({
      requestId: z.string().regex(/^R-\d{4}$/).describe("The request's id, such as R-1042."),
      resolution: z.string().min(1).max(200).describe("How it was resolved, in a few words."),
    }),
    needsApproval: true,
    authorize,
    approvalMessage: ({ requestId, resolution }, user) => {
      const request = requests.get(user.orgScope, requestId);
      return `Close ${requestId}${request ? ` "${request.title}"` : ""} as "${resolution}"?`;
    },
    approvalFields: { properties: { resolution: { type: "string", minLength: 1, maxLength: 200, description: "Change the resolution before approving." } } },
    applyApproval: (args, answer) => (typeof answer.resolution === "string" && answer.resolution.trim() ? { ...args, resolution: answer.resolution.trim() } : args),
    execute: ({ requestId, resolution }, { user }) => {
      const closed = requests.close(user.orgScope, requestId, resolution);
      if (!closed) throw new TetherError("forbidden", `There is no work request ${requestId} in ${user.orgScope}.`);
      return { closed: true, requestId: closed.id, title: closed.title, status: closed.status, resolution: closed.resolution };
    },
  });
}
