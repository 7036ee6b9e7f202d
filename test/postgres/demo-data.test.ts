import pg from "pg";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import type { SseFrame } from "@tether-agent/tether/testing";
import { afterAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { quoteIdentifier } from "@tether-agent/tether/internal";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { reachablePostgres, serverSchemas } from "../helpers/postgres.ts";
import { recordClient, userMessage } from "../record/record-client.ts";

/**
 * Two demo instances on one PostgreSQL schema, each with a data folder of its
 * own (as on two machines): the apps' own data (work requests, orders) is in
 * the database with the threads, so what one instance did the other sees.
 */

const tools = [toAgUiTool(navigateToScreen)];
const server = await reachablePostgres();
if (!("url" in server)) console.info(`The demo apps' data on PostgreSQL: skipped. ${server.skipped}`);

const results = (frames: SseFrame[]) =>
  frames.filter((frame) => frame.data.type === "TOOL_CALL_RESULT").map((frame) => JSON.parse((frame.data as { content: string }).content) as unknown);

describe.skipIf(!("url" in server))("the demo apps' own data on PostgreSQL, across instances", () => {
  const url = "url" in server ? server.url : "";
  const schemas = serverSchemas(url);
  const schema = schemas.make("demo_data");
  const started: DemoServer[] = [];
  afterAll(async () => {
    await Promise.all(started.map((instance) => instance.close()));
    await schemas.dropAll();
  });

  /** Both instances at once, on the same fresh schema, each with its own TETHER_DATA_DIR. */
  async function startBoth(): Promise<[DemoServer, DemoServer]> {
    const both = await Promise.all([
      startDemoServer({ databaseUrl: url, databaseSchema: schema }),
      startDemoServer({ databaseUrl: url, databaseSchema: schema }),
    ]);
    started.push(...both);
    expect(both[0].dataDir).not.toBe(both[1].dataDir);
    return both;
  }
  const workRequest = async (instance: DemoServer, user: string, id: string) => {
    const response = await fetch(`${instance.url}/api/workdesk/requests/${id}`, { headers: { Authorization: `Bearer ${instance.token(user)}` } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { request: { status: string; resolution?: string } }).request;
  };
  const order = async (instance: DemoServer, body: unknown) => {
    const response = await fetch(`${instance.url}/api/recipes/orders`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${instance.token("sam")}` },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { order: { orderId: string }; repeated: boolean };
  };

  it("refuses a Tether schema too long to have its demo schema beside it, as config_invalid, rather than letting PostgreSQL cut the name", async () => {
    const long = `${schema}_${"x".repeat(60)}`.slice(0, 60);
    try {
      const error = await startDemoServer({ databaseUrl: url, databaseSchema: long, dataDir: ":memory:" }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "config_invalid", message: expect.stringContaining("at most 58 bytes") });
    } finally {
      const database = new pg.Client({ connectionString: url });
      await database.connect();
      // With the cut demo schema a build without the check would have made (PostgreSQL cuts the name here the same way).
      await database.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(long)}, ${quoteIdentifier(`${long}_demo`)} CASCADE`).finally(() => database.end());
    }
  });

  it("starts two instances at once and seeds the work requests once, in the database", async () => {
    await startBoth();
    const database = new pg.Client({ connectionString: url });
    await database.connect();
    try {
      const { rows } = await database.query(`SELECT count(*)::int AS count FROM ${quoteIdentifier(`${schema}_demo`)}.workdesk_requests`);
      expect(rows).toEqual([{ count: 60 }]);
    } finally {
      await database.end();
    }
  });

  it("reads a request closed through one instance as closed through the other, which then closes nothing again", async () => {
    const [a, b] = started.length === 2 ? (started as [DemoServer, DemoServer]) : await startBoth();
    const throughA = recordClient(a.url, a.token);
    const asked = await throughA.run("lee", "workdesk", {
      threadId: "data-close",
      runId: "data-close-r1",
      messages: [userMessage("data-close-u1", "close R-1042 as fixed")],
      tools,
    });
    const outcome = (asked.at(-1)!.data as { outcome: { type: string; interrupts: Array<{ id: string }> } }).outcome;
    expect(outcome.type).toBe("interrupt");
    expect(await workRequest(b, "lee", "R-1042")).toMatchObject({ status: "open" });
    const approved = await throughA.run("lee", "workdesk", {
      threadId: "data-close",
      runId: "data-close-r2",
      tools,
      resume: [{ interruptId: outcome.interrupts[0]!.id, status: "resolved", payload: { approved: true } }],
    } as never);
    expect(results(approved)).toMatchObject([{ closed: true, requestId: "R-1042", resolution: "fixed" }]);

    expect(await workRequest(b, "lee", "R-1042")).toMatchObject({ status: "closed", resolution: "fixed" });
    expect(await workRequest(b, "kim", "R-1042")).toMatchObject({ status: "closed" });
    // Asked again through B: it is already closed there too, so nobody is asked to approve, and nothing changes.
    const again = await recordClient(b.url, b.token).run("lee", "workdesk", {
      threadId: "data-close-again",
      runId: "data-close-again-r1",
      messages: [userMessage("data-close-again-u1", "close R-1042 as fixed")],
      tools,
    });
    expect((again.at(-1)!.data as { outcome?: { type: string } }).outcome?.type).not.toBe("interrupt");
    expect(results(again)).toMatchObject([{ closed: false, alreadyClosed: true, requestId: "R-1042", resolution: "fixed" }]);
  });

  it("places an order sent through both instances once, at the same moment or one after the other", async () => {
    const [a, b] = started.length === 2 ? (started as [DemoServer, DemoServer]) : await startBoth();
    const body = { recipeId: "r-204", servings: 4, requestId: "call_data_1" };
    const [first, second] = await Promise.all([order(a, body), order(b, body)]);
    expect([first.repeated, second.repeated].sort()).toEqual([false, true]);
    expect(second.order).toEqual(first.order);
    expect(await order(b, body)).toEqual({ order: first.order, repeated: true });
    for (const instance of [a, b]) {
      const response = await fetch(`${instance.url}/api/recipes/orders`, { headers: { Authorization: `Bearer ${instance.token("sam")}` } });
      expect(((await response.json()) as { orders: Array<{ orderId: string }> }).orders.map((placed) => placed.orderId)).toEqual([first.order.orderId]);
    }
  });
});
