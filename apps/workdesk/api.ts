import { Hono, type MiddlewareHandler } from "hono";
import { TetherError } from "@tether-agent/tether/protocol";
import { requireJson, sameOrigin, type AuthEnv, type TetherUser } from "@tether-agent/tether/server";
import { WORKDESK_USERS, breadcrumb, isWorkdeskUser, screensFor, type WorkRequestRepository, type WorkRequestStatus } from "./agent/index.ts";
import { WORK_REQUEST_STATUSES } from "./agent/work-requests.ts";
import type { WorkdeskUser } from "./agent/users.ts";

/**
 * The Workdesk app's own data API, for its screens. Every route reads the
 * caller from Tether's `auth` and shows only what they may see: their
 * organisation's requests, their own menu, the manager's and admin's screens
 * only to them.
 */
export function workdeskApi<User extends TetherUser>(options: {
  auth: MiddlewareHandler<AuthEnv<User>>;
  requests: WorkRequestRepository;
  trustedOrigins?: readonly string[];
}) {
  const { requests } = options;
  // The demo signs in Recipes users too; none of them belongs to an organisation here.
  const me = (user: TetherUser): WorkdeskUser => {
    if (!isWorkdeskUser(user)) throw new TetherError("forbidden", "The Workdesk is for Workdesk users (kim, lee, park, admin); sign in as one of them.");
    return user;
  };
  const requireRole = (user: WorkdeskUser, role: string) => {
    if (!user.roles.includes(role)) throw new TetherError("forbidden", `This screen is for the ${role} role.`);
  };
  return (
    new Hono<AuthEnv<User>>()
      // As on Tether's own routes: a POST added here must be JSON, and from the app's own pages when it rides on the cookie.
      .use("*", requireJson(), sameOrigin({ trustedOrigins: options.trustedOrigins ?? [] }), options.auth)
      .get("/me", (c) => c.json({ user: me(c.var.user) }))
      .get("/screens", (c) =>
        c.json({
          screens: screensFor(me(c.var.user)).map((screen) => {
            const { synonyms: _synonyms, shows: _shows, ...shown } = screen;
            return { ...shown, path: breadcrumb(screen) };
          }),
        }),
      )
      .get("/dashboard", async (c) => {
        const mine = await requests.list(me(c.var.user).orgScope);
        const count = (status: WorkRequestStatus) => mine.filter((request) => request.status === status).length;
        return c.json({
          orgScope: me(c.var.user).orgScope,
          counts: Object.fromEntries(WORK_REQUEST_STATUSES.map((status) => [status, count(status)])),
          highPriorityOpen: mine.filter((request) => request.priority === "high" && request.status !== "closed").slice(0, 5),
        });
      })
      .get("/requests", async (c) => {
        const status = c.req.query("status");
        if (status && !(WORK_REQUEST_STATUSES as readonly string[]).includes(status)) {
          throw new TetherError("invalid_input", `status must be one of ${WORK_REQUEST_STATUSES.join(", ")}.`);
        }
        const query = c.req.query("query");
        return c.json({
          requests: await requests.list(me(c.var.user).orgScope, { ...(query ? { query } : {}), ...(status ? { status: status as WorkRequestStatus } : {}) }),
        });
      })
      .get("/requests/:id", async (c) => {
        const request = await requests.get(me(c.var.user).orgScope, c.req.param("id"));
        // Another organisation's request and a request that does not exist look the same.
        if (!request) throw new TetherError("not_found", `There is no work request ${c.req.param("id")} in your organisation.`);
        return c.json({ request });
      })
      .get("/approvals", async (c) => {
        requireRole(me(c.var.user), "manager");
        return c.json({ requests: await requests.list(me(c.var.user).orgScope, { status: "waiting_approval" }) });
      })
      .get("/users", (c) => {
        requireRole(me(c.var.user), "admin");
        return c.json({ users: WORKDESK_USERS.map(({ id, displayName, orgScope, roles }) => ({ id, displayName, orgScope, roles })) });
      })
  );
}
