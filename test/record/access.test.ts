import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { SAM_DESKTOP } from "../recipes/recipes-runs.ts";
import { recordClient, userMessage, type RecordClient } from "./record-client.ts";

/** Who reads which records: an app's admin reads that app's runs of the admin's own organisation, not another organisation's nor another app's users'. */

let server: DemoServer;
let client: RecordClient;
beforeAll(async () => {
  server = await startDemoServer();
  client = recordClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
});

describe("access to run records", () => {
  it("keeps a Recipes user's runs from the Workdesk's admin, who still reads the Workdesk's", async () => {
    await client.run("sam", "recipes", {
      threadId: "rec-access-recipes",
      runId: "rec-access-recipes-r1",
      messages: [userMessage("rec-access-recipes-u1", "egg fried rice please")],
      tools: SAM_DESKTOP.tools,
    });
    await client.run("kim", "workdesk", {
      threadId: "rec-access-workdesk",
      runId: "rec-access-workdesk-r1",
      messages: [userMessage("rec-access-workdesk-u1", "open the work request list")],
    });

    expect((await client.record("sam", "rec-access-recipes-r1")).status).toBe(200);
    expect((await client.record("admin", "rec-access-recipes-r1")).status).toBe(403);
    expect((await client.chain("admin", "rec-access-recipes")).status).toBe(403);
    expect((await client.record("admin", "rec-access-workdesk-r1")).status).toBe(200);
    expect((await client.chain("admin", "rec-access-workdesk")).status).toBe(200);
  });

  it("keeps another organisation's Workdesk runs from ORG-01's admin, as any other user's, while ORG-01's stay readable", async () => {
    for (const user of ["park", "kim"]) {
      await client.run(user, "workdesk", {
        threadId: `rec-scope-${user}`,
        runId: `rec-scope-${user}-r1`,
        messages: [userMessage(`rec-scope-${user}-u1`, "open the work request list")],
      });
    }
    // park is ORG-02: the ORG-01 admin gets exactly what lee (another ORG-01 user, no admin) gets, naming no run or thread.
    const record = await client.record("admin", "rec-scope-park-r1");
    const chain = await client.chain("admin", "rec-scope-park");
    expect(record).toEqual({ status: 403, body: { error: { code: "forbidden", message: "This thread belongs to another user." } } });
    expect(record).toEqual(await client.record("lee", "rec-scope-park-r1"));
    expect(chain).toEqual(await client.chain("lee", "rec-scope-park"));
    expect(JSON.stringify([record.body, chain.body])).not.toMatch(/rec-scope/);
    expect((await client.record("park", "rec-scope-park-r1")).status).toBe(200);
    // kim is ORG-01: the admin reads her record and her thread's chain in the runs viewer.
    expect(await client.record("admin", "rec-scope-kim-r1")).toMatchObject({ status: 200, body: { runId: "rec-scope-kim-r1" } });
    expect(await client.chain("admin", "rec-scope-kim")).toMatchObject({ status: 200, body: { runs: [{ runId: "rec-scope-kim-r1" }] } });
  });
});
