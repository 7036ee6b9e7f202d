import { describe, expect, it } from "vitest";
import { isTetherError } from "../../protocol/index.ts";
import { createScriptedModel } from "../../testing/index.ts";
import { defineAgent } from "../agent/index.ts";
import { createTetherApp, type TetherAppOptions } from "../app.ts";
import type { Logger } from "./logger.ts";
import type { RecordScope } from "./owned.ts";
import { createMemoryRunStore } from "../store/index.ts";

/** Who reads a record of a thread they do not own: the app's `canReadRecord`, told whose thread it is. */

interface OrgUser {
  id: string;
  org: string;
  admin?: boolean;
}
const USERS: Record<string, OrgUser> = {
  kim: { id: "kim", org: "ORG-01" },
  park: { id: "park", org: "ORG-02" },
  boss: { id: "boss", org: "ORG-01", admin: true },
};
const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function appWith(options: Pick<TetherAppOptions<OrgUser>, "canReadRecord" | "canReadAllRecords"> & { logger?: Logger }) {
  const tether = await createTetherApp<OrgUser>({
    agents: [defineAgent<OrgUser>({ id: "desk", model: createScriptedModel([{ text: "one" }, { text: "two" }]) })],
    authenticate: (request) => USERS[request.headers.get("x-user") ?? ""],
    store: createMemoryRunStore(),
    logger: quiet,
    ...options,
  });
  for (const user of ["kim", "park"]) {
    const response = await tether.app.request("/api/agents/desk/run", {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-user": user },
      body: JSON.stringify({ threadId: `t-${user}`, runId: `r-${user}`, messages: [{ id: `m-${user}`, role: "user", content: "hi" }], tools: [], context: [] }),
    });
    await response.text();
  }
  const read = async (user: string, path: string) => {
    const response = await tether.app.request(`/api${path}`, { headers: { "x-user": user } });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  return { tether, read };
}

describe("canReadRecord", () => {
  it("is asked with the thread's owner and agent, and opens exactly what it allows (asynchronously too)", async () => {
    const asked: RecordScope[] = [];
    const { tether, read } = await appWith({
      canReadRecord: async (reader, record) => {
        asked.push(record);
        return Boolean(reader.admin) && USERS[record.ownerId]?.org === reader.org;
      },
    });
    expect((await read("boss", "/runs/r-kim/record")).status).toBe(200);
    expect((await read("boss", "/threads/t-kim/runs")).status).toBe(200);
    expect(asked).toContainEqual({ threadId: "t-kim", ownerId: "kim", agentId: "desk" });

    // Outside the reader's organisation: the very answer any other user's run gets, with nothing of the record in it.
    const outside = await read("boss", "/runs/r-park/record");
    const stranger = await read("kim", "/runs/r-park/record");
    expect(outside).toEqual({ status: 403, body: { error: { code: "forbidden", message: "This thread belongs to another user." } } });
    expect(outside).toEqual(stranger);
    expect(await read("boss", "/threads/t-park/runs")).toEqual(await read("kim", "/threads/t-park/runs"));
    expect(JSON.stringify(outside.body)).not.toMatch(/r-park|t-park/);
    // Owners read their own without the hook.
    expect((await read("park", "/runs/r-park/record")).status).toBe(200);
    await tether.close();
  });

  it("refuses on anything but true from the hook", async () => {
    const { tether, read } = await appWith({ canReadRecord: () => "yes" as unknown as boolean });
    expect((await read("boss", "/runs/r-kim/record")).status).toBe(403);
    await tether.close();
  });

  it("still honours the deprecated canReadAllRecords, by agent only, and warns at start", async () => {
    const warnings: string[] = [];
    const { tether, read } = await appWith({
      canReadAllRecords: (reader, agentId) => Boolean(reader.admin) && agentId === "desk",
      logger: { ...quiet, warn: (message) => warnings.push(message) },
    });
    expect((await read("boss", "/runs/r-park/record")).status).toBe(200);
    expect((await read("kim", "/runs/r-park/record")).status).toBe(403);
    expect(warnings.join("\n")).toMatch(/canReadAllRecords is deprecated.*canReadRecord/);
    await tether.close();
  });

  it("refuses both options at once as config_invalid", async () => {
    const error = await appWith({ canReadRecord: () => true, canReadAllRecords: () => true }).catch((caught: unknown) => caught);
    expect(isTetherError(error) && error.code).toBe("config_invalid");
  });
});
