import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen, seedWorkRequests } from "../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "./helpers/demo-server.ts";

describe("permissions", () => {
  let server: DemoServer;
  const run = async (user: string, threadId: string, runId: string, text: string) => {
    const response = await fetch(`${server.url}/api/agents/workdesk/run`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${server.token(user)}` },
      body: JSON.stringify({
        threadId,
        runId,
        messages: [{ id: `${runId}-u`, role: "user", content: text }],
        tools: [toAgUiTool(navigateToScreen)],
        context: [],
      }),
    });
    return { status: response.status, text: await response.text() };
  };
  const lookupResults = (body: string) =>
    parseSseFrames(body)
      .filter((frame) => frame.data.type === "TOOL_CALL_RESULT")
      .map((frame) => JSON.parse(frame.data.content));

  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("never offers kim the manager's or the admin's screens, and the store keeps no trace of them", async () => {
    const asks = [
      "open approvals",
      "take me to user administration",
      "show me the admin page",
      "I need the approval queue",
      "open pending approvals",
      "go to users",
    ];
    for (const [index, ask] of asks.entries()) {
      const { status, text } = await run("kim", "kim-perms", `kim-perms-r${index}`, ask);
      expect(status).toBe(200);
      expect(text).not.toMatch(/MNU-3200|MNU-9000|User administration|Approvals/);
      const [lookup] = lookupResults(text);
      expect(lookup.candidates.map((candidate: { screenId: string }) => candidate.screenId)).not.toContain("MNU-3200");
    }
    // Nothing about those screens reached the store: not the messages, the pending calls, the runs, nor the event log.
    const { store } = server.demo.tether;
    const stored: unknown[] = [await store.getMessages("kim-perms"), await store.getPendingToolCalls("kim-perms")];
    for (const run of await store.listRuns("kim-perms")) stored.push(run, await store.readEvents(run.runId));
    const everything = JSON.stringify(stored);
    expect(everything).toContain("MNU-3120"); // the scan does see screen ids
    expect(everything).not.toMatch(/MNU-3200|MNU-9000/);
    // And not in the database file's raw bytes either (event pages are compressed, the rest is plain).
    const files = readdirSync(server.dataDir).filter((name) => name.startsWith("tether.db"));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(readFileSync(join(server.dataDir, name)).toString("latin1")).not.toMatch(/MNU-3200|MNU-9000/);
  });

  it("offers Approvals to a manager who asks for it", async () => {
    const { text } = await run("lee", "lee-perms", "lee-perms-r1", "open approvals");
    const [lookup] = lookupResults(text);
    expect(lookup.candidates[0].screenId).toBe("MNU-3200");
    const navigate = parseSseFrames(text).find((frame) => frame.data.type === "TOOL_CALL_START" && frame.data.toolCallName === "navigateToScreen");
    expect(navigate).toBeDefined();
  });

  it("never shows park a request of ORG-01, whether searching or looking a screen up", async () => {
    const search = lookupResults((await run("park", "park-perms", "park-perms-r1", "find requests")).text)[0];
    expect(search.total).toBeGreaterThan(0);
    const orgOf = new Map(seedWorkRequests().map((request) => [request.id, request.orgScope]));
    for (const request of search.requests) expect(orgOf.get(request.id)).toBe("ORG-02");

    const direct = lookupResults((await run("park", "park-perms", "park-perms-r2", "find R-1042")).text)[0];
    expect(direct.total).toBe(0);
    const { text } = await run("park", "park-perms", "park-perms-r3", "take me to R-1042");
    expect(text).not.toMatch(/badge reader|MNU-3130/);
  });

  it("keeps kim's thread from lee: no reading, no continuing, no events, no record, no cancel", async () => {
    await run("kim", "kim-private", "kim-private-r1", "open the work request list");
    const lee = { Authorization: `Bearer ${server.token("lee")}` };
    expect((await fetch(`${server.url}/api/threads/kim-private`, { headers: lee })).status).toBe(403);
    expect((await fetch(`${server.url}/api/threads/kim-private/events`, { headers: lee })).status).toBe(403);
    expect((await fetch(`${server.url}/api/runs/kim-private-r1/record`, { headers: lee })).status).toBe(403);
    expect(
      (await fetch(`${server.url}/api/runs/kim-private-r1/cancel`, { method: "POST", headers: { ...lee, "Content-Type": "application/json" }, body: "{}" }))
        .status,
    ).toBe(403);
    const hijack = await run("lee", "kim-private", "lee-hijack-r1", "open approvals");
    expect(hijack.status).toBe(403);
    expect(JSON.parse(hijack.text).error.code).toBe("forbidden");
    const thread = await (await fetch(`${server.url}/api/threads/kim-private`, { headers: { Authorization: `Bearer ${server.token("kim")}` } })).json();
    expect(thread.runs.map((run: { runId: string }) => run.runId)).toEqual(["kim-private-r1"]);
  });

  it("keeps each app's people to their own agent and API: a Recipes user has no organisation in the Workdesk, a Workdesk user no cookbook", async () => {
    const as = (user: string) => ({ Authorization: `Bearer ${server.token(user)}`, "Content-Type": "application/json" });
    const post = (user: string, agent: string) =>
      fetch(`${server.url}/api/agents/${agent}/run`, {
        method: "POST",
        headers: as(user),
        body: JSON.stringify({
          threadId: `${user}-${agent}`,
          runId: `${user}-${agent}-r1`,
          messages: [{ id: "u1", role: "user", content: "hello" }],
          tools: [],
          context: [],
        }),
      });
    for (const [user, agent] of [
      ["sam", "workdesk"],
      ["guest", "workdesk"],
      ["kim", "recipes"],
    ] as const) {
      const response = await post(user, agent);
      expect(response.status, `${user} → ${agent}`).toBe(403);
      expect((await response.json()).error).toMatchObject({ code: "forbidden", message: expect.stringContaining(`"${agent}"`) });
      expect((await fetch(`${server.url}/api/agents/${agent}/capabilities`, { headers: as(user) })).status).toBe(403);
      expect((await fetch(`${server.url}/api/threads/${user}-${agent}`, { headers: as(user) })).status, "no thread was begun").toBe(404);
    }
    for (const path of ["/api/workdesk/me", "/api/workdesk/requests", "/api/workdesk/screens"]) {
      const response = await fetch(`${server.url}${path}`, { headers: as("sam") });
      expect(response.status, path).toBe(403);
      expect(JSON.stringify(await response.json())).not.toMatch(/R-10\d\d|ORG-0/);
    }
    for (const path of ["/api/recipes/me", "/api/recipes/recipes", "/api/recipes/cookbook"])
      expect((await fetch(`${server.url}${path}`, { headers: as("kim") })).status, path).toBe(403);
    const guestSave = await fetch(`${server.url}/api/recipes/cookbook`, { method: "POST", headers: as("guest"), body: JSON.stringify({ recipeId: "r-204" }) });
    expect(guestSave.status).toBe(403);
    expect((await (await fetch(`${server.url}/api/recipes/cookbook`, { headers: as("sam") })).json()).cookbook).toEqual([]);
    expect((await post("sam", "recipes")).status).toBe(200);
  });

  it("offers each user the agent's welcome made for them, in its capabilities", async () => {
    const welcome = async (user: string) =>
      (await (await fetch(`${server.url}/api/agents/workdesk/capabilities`, { headers: { Authorization: `Bearer ${server.token(user)}` } })).json()).custom
        .welcome;
    expect(await welcome("kim")).toEqual({
      greeting: expect.stringMatching(/^Hi Kim\./),
      suggestions: ["open the work request list", "find badge reader requests", "show R-1042 as a card"],
    });
    expect((await welcome("lee")).greeting).toMatch(/^Hi Lee\./);
  });
});
