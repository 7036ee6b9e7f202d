import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpAgent } from "@ag-ui/client";
import { Hono } from "hono";
import { defineAgent, silentLogger } from "@tether-agent/tether/server";
import { createAgentHandlers, type AgentHandlers } from "@tether-agent/tether/fetch";
import { createScriptedModel, parseSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "@tether-agent/tether/node";

/** The guide's example (docs/guide.md): one agent mounted in a plain Hono app's own routes, without createTetherApp. */
describe("createAgentHandlers in a plain Hono app", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "tether-handlers-"));
  let chat: AgentHandlers;
  let server: Awaited<ReturnType<typeof listen>>;
  const authenticate = (request: Request) =>
    request.headers.get("authorization") === "Bearer kim-token" ? { id: "kim", orgScope: "ORG-01", roles: [] } : undefined;

  beforeAll(async () => {
    const agent = defineAgent({
      id: "helper",
      model: createScriptedModel([{ text: "Hello from a plain route." }, { text: "Still here." }]),
      instructions: "Be brief.",
    });
    chat = await createAgentHandlers({ agent, authenticate, dataDir, logger: silentLogger });
    const app = new Hono();
    app.post("/chat", (c) => chat.run(c.req.raw));
    app.get("/chat/events", (c) => chat.connect(c.req.raw));
    app.get("/chat/capabilities", (c) => chat.capabilities(c.req.raw));
    server = await listen(app, { port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await server.close();
    await chat.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs the agent for the unmodified HttpAgent", async () => {
    const agent = new HttpAgent({ url: `${server.url}/chat`, headers: { Authorization: "Bearer kim-token" }, threadId: "plain-1" });
    agent.addMessage({ id: "u1", role: "user", content: "hi" });
    await agent.runAgent({ runId: "plain-1-r1" });
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: "Hello from a plain route." });
  });

  it("replays a thread's run on connect, and resumes after Last-Event-ID", async () => {
    const whole = parseSseFrames(await (await fetch(`${server.url}/chat/events?threadId=plain-1`, { headers: { Authorization: "Bearer kim-token" } })).text());
    expect(whole[0]!.data).toMatchObject({ type: "RUN_STARTED", runId: "plain-1-r1" });
    expect(whole.at(-1)!.data.type).toBe("RUN_FINISHED");
    const rest = parseSseFrames(
      await (
        await fetch(`${server.url}/chat/events?threadId=plain-1`, { headers: { Authorization: "Bearer kim-token", "Last-Event-ID": whole.at(-3)!.id! } })
      ).text(),
    );
    expect(rest).toEqual(whole.slice(-2));
  });

  it("passes the URL's query on: a compatibility level the client chose reaches the runtime", async () => {
    const unknown = await fetch(`${server.url}/chat?compat=ag-ui-0.5`, {
      method: "POST",
      headers: { Authorization: "Bearer kim-token", "Content-Type": "application/json" },
      body: JSON.stringify({ threadId: "plain-2", runId: "plain-2-r1", messages: [], tools: [], context: [] }),
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/compat="ag-ui-0.5"/);
    const replay = await fetch(`${server.url}/chat/events?threadId=plain-1&compat=ag-ui-0.0`, { headers: { Authorization: "Bearer kim-token" } });
    expect(replay.status).toBe(200);
    await replay.text();
  });

  it("asks for the thread when connect names none", async () => {
    const response = await fetch(`${server.url}/chat/events`, { headers: { Authorization: "Bearer kim-token" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "invalid_input", message: expect.stringContaining("?threadId=") } });
  });

  it("describes the agent in capabilities", async () => {
    const capabilities = await (await fetch(`${server.url}/chat/capabilities`, { headers: { Authorization: "Bearer kim-token" } })).json();
    expect(capabilities.identity).toMatchObject({ name: "helper", type: "tether" });
  });

  it("makes every check createTetherApp makes: credentials, JSON bodies, errors with codes", async () => {
    const anonymous = await fetch(`${server.url}/chat`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: "unauthenticated" } });
    const plain = await fetch(`${server.url}/chat`, {
      method: "POST",
      headers: { Authorization: "Bearer kim-token", "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(plain.status).toBe(415);
    const invalid = await fetch(`${server.url}/chat`, {
      method: "POST",
      headers: { Authorization: "Bearer kim-token", "Content-Type": "application/json" },
      body: JSON.stringify({ threadId: "x" }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: { code: "invalid_input" } });
  });
});
