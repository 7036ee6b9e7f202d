import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { SAM_DESKTOP } from "../recipes/recipes-runs.ts";
import { recordClient, userMessage, type RecordClient } from "./record-client.ts";

/** Who reads which records: an app's admin reads that app's runs, not another app's users'. */

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
});
