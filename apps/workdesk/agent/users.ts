import type { TetherUser } from "@tether-agent/tether/server";

/** A Workdesk user: who they are, the organisation they signed in under (data outside it is invisible) and their roles. */
export interface WorkdeskUser extends TetherUser {
  displayName: string;
  orgScope: string;
  roles: string[];
}

/** The Workdesk demo's people. Sign-in is demo-only: anyone may be any of them. */
export const WORKDESK_USERS: WorkdeskUser[] = [
  { id: "kim", displayName: "Kim Ara", orgScope: "ORG-01", roles: ["requester"] },
  { id: "lee", displayName: "Lee Joon", orgScope: "ORG-01", roles: ["manager"] },
  { id: "park", displayName: "Park Hana", orgScope: "ORG-02", roles: ["requester"] },
  { id: "admin", displayName: "Alex Admin", orgScope: "ORG-01", roles: ["admin"] },
];

export function isWorkdeskUser(user: TetherUser): user is WorkdeskUser {
  return typeof (user as WorkdeskUser).orgScope === "string" && Array.isArray((user as WorkdeskUser).roles);
}
