import type { WorkdeskUser } from "./users.ts";

/** A screen of the Workdesk menu. Ids, not routes, are what the agent navigates by. */
export interface Screen {
  id: string;
  name: string;
  description: string;
  /** Where it lives; `:requestId` is filled from the navigation payload. Groups have none. */
  route?: string;
  parent?: string;
  /** Roles that see it; everyone when absent. */
  roles?: string[];
  /** Other words people use for it. */
  synonyms: string[];
  /** What kind of record it shows, so "where is R-1042" finds it. */
  shows?: "work-request-list" | "work-request";
}

/** Frozen: what lookup works out from a screen once (its words) stays true of it. */
export const SCREENS: readonly Screen[] = [
  { id: "MNU-3000", name: "Work management", description: "Menu group for work requests.", synonyms: ["work"] },
  {
    id: "MNU-3100",
    name: "Dashboard",
    description: "Overview of open, in-progress and overdue work requests in your organisation.",
    route: "/dashboard",
    parent: "MNU-3000",
    synonyms: ["home", "overview", "summary", "start page", "main page"],
  },
  {
    id: "MNU-3120",
    name: "Work request list",
    description: "All work requests of your organisation with their status, priority and requester.",
    route: "/work-requests",
    parent: "MNU-3000",
    synonyms: ["request list", "requests", "work requests", "tickets", "ticket list", "work orders", "list of requests"],
    shows: "work-request-list",
  },
  {
    id: "MNU-3130",
    name: "Work request detail",
    description: "One work request: its description, history and current status.",
    route: "/work-requests/:requestId",
    parent: "MNU-3120",
    synonyms: ["request detail", "request details", "ticket detail", "single request"],
    shows: "work-request",
  },
  {
    id: "MNU-3140",
    name: "New work request",
    description: "Form to file a new work request for repairs, equipment or facilities.",
    route: "/work-requests/new",
    parent: "MNU-3000",
    synonyms: ["create request", "file a request", "new ticket", "report a problem", "submit request"],
  },
  {
    id: "MNU-3200",
    name: "Approvals",
    description: "Work requests waiting for a manager's approval.",
    route: "/approvals",
    parent: "MNU-3000",
    roles: ["manager"],
    synonyms: ["approval queue", "pending approvals", "approve requests", "approval inbox"],
  },
  {
    id: "MNU-9000",
    name: "User administration",
    description: "Manage user accounts, roles and organisations.",
    route: "/admin/users",
    roles: ["admin"],
    synonyms: ["user admin", "administration", "admin", "users", "accounts", "user management", "roles"],
  },
];
for (const screen of SCREENS) {
  Object.freeze(screen.synonyms);
  if (screen.roles) Object.freeze(screen.roles);
  Object.freeze(screen);
}
Object.freeze(SCREENS);

export function canSee(user: WorkdeskUser, screen: Screen): boolean {
  return !screen.roles || screen.roles.some((role) => user.roles.includes(role));
}

const SCREEN_BY_ID = new Map(SCREENS.map((screen) => [screen.id, screen]));

/**
 * The screens a user may open, as a tree-ordered list: what the menu shows and the browser checks against.
 * A screen is theirs only if every group above it is: a role kept off a group keeps them off all it holds.
 */
export function screensFor(user: WorkdeskUser, screens: readonly Screen[] = SCREENS): Screen[] {
  const byId = screens === SCREENS ? SCREEN_BY_ID : new Map(screens.map((screen) => [screen.id, screen]));
  return screens.filter((screen) => opensFor(user, screen, byId));
}

function opensFor(user: WorkdeskUser, screen: Screen, byId: ReadonlyMap<string, Screen>): boolean {
  // At most one step per screen: a menu whose parents loop shows nothing of the loop rather than hang.
  let current: Screen | undefined = screen;
  for (let steps = 0; current && steps <= byId.size; steps++) {
    if (!canSee(user, current)) return false;
    if (!current.parent) return true;
    // A parent the menu does not have: hidden, not guessed at.
    current = byId.get(current.parent);
  }
  return false;
}

export function screenById(id: string): Screen | undefined {
  return SCREENS.find((screen) => screen.id === id);
}

/** "Work management › Work request list": the way to follow by hand. */
export function breadcrumb(screen: Screen): string {
  const names: string[] = [];
  for (let current: Screen | undefined = screen; current; current = current.parent ? screenById(current.parent) : undefined) {
    names.unshift(current.name);
  }
  return names.join(" › ");
}
