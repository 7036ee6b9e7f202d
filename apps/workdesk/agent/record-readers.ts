import type { RecordScope, TetherUser } from "@tether-agent/tether/server";
import { isWorkdeskUser, type WorkdeskUser } from "./users.ts";

/**
 * Who reads a Workdesk run's record (and its thread's chain) besides the
 * thread's owner: an admin, for the Workdesk runs of people of the admin's
 * own organisation. Another organisation's runs, a Recipes user's, and an
 * owner the directory does not know stay closed.
 *
 * @example
 * createTetherApp({ agents, authenticate, canReadRecord: workdeskRecordReaders(WORKDESK_USERS) });
 */
export function workdeskRecordReaders(users: readonly WorkdeskUser[]) {
  const organisationOf = new Map(users.map((user) => [user.id, user.orgScope]));
  return (reader: TetherUser, record: RecordScope): boolean =>
    record.agentId === "workdesk" && isWorkdeskUser(reader) && reader.roles.includes("admin") && organisationOf.get(record.ownerId) === reader.orgScope;
}
