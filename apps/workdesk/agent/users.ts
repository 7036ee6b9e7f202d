import type { TetherUser } from "tether/server";

/** The Workdesk demo's people. Sign-in is demo-only: anyone may be any of them. */
export const WORKDESK_USERS: TetherUser[] = [
  { userId: "kim", displayName: "Kim Ara", orgScope: "ORG-01", roles: ["requester"] },
  { userId: "lee", displayName: "Lee Joon", orgScope: "ORG-01", roles: ["manager"] },
  { userId: "park", displayName: "Park Hana", orgScope: "ORG-02", roles: ["requester"] },
  { userId: "admin", displayName: "Alex Admin", orgScope: "ORG-01", roles: ["admin"] },
];
