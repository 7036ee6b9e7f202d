import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "@ag-ui/core";
import pg from "pg";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { parseSseFrames, type SseFrame } from "@tether-agent/tether/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { quoteIdentifier } from "@tether-agent/tether/internal";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { reachablePostgres, serverSchemas } from "../helpers/postgres.ts";
import { recordClient, startedCalls, toolMessage, userMessage } from "../record/record-client.ts";

/**
 * The demo server with its threads and runs on PostgreSQL
 * (`TETHER_DATABASE_URL`): the Workdesk story end to end, and everything it
 * stored still there after the server restarts on the same database.
 */

const tools = [toAgUiTool(navigateToScreen)];
const server = await reachablePostgres();
if (!("url" in server)) console.info(`The Workdesk story on PostgreSQL: skipped. ${server.skipped}`);

const types = (frames: SseFrame[]) => frames.map((frame) => frame.data.type as string);
const text = (frames: SseFrame[]) =>
  frames
    .filter((frame) => frame.data.type === "TEXT_MESSAGE_CONTENT")
    .map((frame) => (frame.data as { delta: string }).delta)
    .join("");

describe.skipIf(!("url" in server))("the demo on PostgreSQL", () => {
  const url = "url" in server ? server.url : "";
  const schemas = serverSchemas(url);
  const dataDir = mkdtempSync(join(tmpdir(), "tether-pg-demo-"));
  let demo: DemoServer | undefined;
  const schema = schemas.make("demo");
  const start = () => startDemoServer({ dataDir, databaseUrl: url, databaseSchema: schema });

  afterEach(async () => {
    await demo?.close();
    demo = undefined;
  });
  afterAll(async () => {
    await schemas.dropAll();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** "open the work request list": the screen found on the server, the navigation left to the browser, its outcome carried back. */
  async function story(threadId: string) {
    const client = recordClient(demo!.url, demo!.token);
    const first = await client.run("kim", "workdesk", {
      threadId,
      runId: `${threadId}-r1`,
      messages: [userMessage(`${threadId}-u1`, "open the work request list")],
      tools,
      forwardedProps: { tether: { trigger: { kind: "user-message" } } },
    });
    const navigate = startedCalls(first).find((call) => call.toolCallName === "navigateToScreen")!;
    const outcome = { status: "succeeded", stage: "displayed", data: { route: "/work-requests" } };
    expect(await client.report("kim", `${threadId}-r1`, { kind: "tool-outcome", toolCallId: navigate.toolCallId, toolName: "navigateToScreen", outcome })).toBe(
      202,
    );
    const second = await client.run("kim", "workdesk", {
      threadId,
      runId: `${threadId}-r2`,
      messages: [toolMessage(`${threadId}-t1`, navigate.toolCallId, outcome)],
      tools,
      forwardedProps: { tether: { trigger: { kind: "tool-result", parentRunId: `${threadId}-r1`, toolCallIds: [navigate.toolCallId] } } },
    });
    return { client, first, second, navigate };
  }

  async function thread(threadId: string, user = "kim") {
    const response = await fetch(`${demo!.url}/api/threads/${threadId}`, { headers: { Authorization: `Bearer ${demo!.token(user)}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as { messages: Message[]; pendingToolCalls: unknown[]; activeRun?: unknown } & Record<string, unknown>;
  }

  it("runs the Workdesk story: the list opens in the browser and the assistant says so because the outcome came back", async () => {
    demo = await start();
    const { client, first, second, navigate } = await story("pg-story");

    expect(startedCalls(first).map((call) => call.toolCallName)).toEqual(["lookupScreens", "navigateToScreen"]);
    expect(types(first).at(-1)).toBe("RUN_FINISHED");
    expect(first.at(-1)!.data).toMatchObject({ outcome: { type: "success", pendingToolCallIds: [navigate.toolCallId] } });
    expect(types(second).at(-1)).toBe("RUN_FINISHED");
    expect(text(second)).toMatch(/work request list/i);
    // Every frame's id names its run and sequence, as the store numbered them.
    expect(second.map((frame) => frame.id)).toEqual(second.map((_frame, index) => `pg-story-r2:${index + 1}`));
    // Stored in PostgreSQL, in this test's schema.
    const database = new pg.Client({ connectionString: url });
    await database.connect();
    try {
      const stored = await database.query(`SELECT run_id, status FROM ${quoteIdentifier(schema)}.runs WHERE thread_id = 'pg-story' ORDER BY ordinal`);
      expect(stored.rows).toEqual([
        { run_id: "pg-story-r1", status: "finished" },
        { run_id: "pg-story-r2", status: "finished" },
      ]);
    } finally {
      await database.end();
    }
    const { status, body } = await client.record("kim", "pg-story-r1");
    expect(status).toBe(200);
    expect(body).toMatchObject({ runId: "pg-story-r1", status: "finished", complete: true, start: { nextRunIds: ["pg-story-r2"] } });
  });

  it("keeps threads, runs, events and an open approval across a restart on the same database, and executes the approval once", async () => {
    demo = await start();
    await story("pg-restart");
    const client = recordClient(demo.url, demo.token);
    const asked = await client.run("lee", "workdesk", {
      threadId: "pg-approval",
      runId: "pg-approval-r1",
      messages: [userMessage("pg-approval-u1", "close R-1042 as fixed")],
      tools,
    });
    const interrupt = (asked.at(-1)!.data as { outcome: { type: string; interrupts: Array<{ id: string }> } }).outcome;
    expect(interrupt.type).toBe("interrupt");
    const before = { story: await thread("pg-restart"), approval: await thread("pg-approval", "lee"), chain: await client.chain("kim", "pg-restart") };
    await demo.close();

    demo = await start();
    const again = recordClient(demo.url, demo.token);
    expect(await thread("pg-restart")).toEqual(before.story);
    expect(await thread("pg-approval", "lee")).toEqual(before.approval);
    expect(await again.chain("kim", "pg-restart")).toEqual(before.chain);
    expect(before.chain.body).toMatchObject({ runs: [{ runId: "pg-restart-r1" }, { runId: "pg-restart-r2" }] });
    // A reconnect after the restart still replays the stored run, every event with its id.
    const replay = await fetch(`${demo.url}/api/threads/pg-restart/events`, {
      headers: { Authorization: `Bearer ${demo.token("kim")}`, "Last-Event-ID": "pg-restart-r2:1" },
    });
    expect([200, 204]).toContain(replay.status);

    const answer = { interruptId: interrupt.interrupts[0]!.id, status: "resolved" as const, payload: { approved: true } };
    const approved = await again.run("lee", "workdesk", {
      threadId: "pg-approval",
      runId: "pg-approval-r2",
      messages: [],
      tools,
      resume: [answer],
    } as never);
    const results = approved.filter((frame) => frame.data.type === "TOOL_CALL_RESULT").map((frame) => JSON.parse((frame.data as { content: string }).content));
    expect(results).toMatchObject([{ closed: true, requestId: "R-1042", resolution: "fixed" }]);
    // The same answer sent again gets the same run back, and closes nothing a second time.
    const twice = await fetch(`${demo.url}/api/agents/workdesk/run`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${demo.token("lee")}` },
      body: JSON.stringify({
        threadId: "pg-approval",
        runId: "pg-approval-r3",
        messages: [],
        tools,
        context: [],
        state: {},
        forwardedProps: {},
        resume: [answer],
      }),
    });
    expect(twice.status).toBe(200);
    expect(parseSseFrames(await twice.text())).toEqual(approved);
    expect((await again.chain("lee", "pg-approval")).body).toMatchObject({ runs: [{ runId: "pg-approval-r1" }, { runId: "pg-approval-r2" }] });
  });
});
