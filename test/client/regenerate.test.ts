import { createAgentSession, type AgentSession, type BrowserToolHandler } from "@tether-agent/tether/client";
import { createMemoryStorage, createScriptedModel } from "@tether-agent/tether/testing";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, defineTool, silentLogger } from "@tether-agent/tether/server";
import { turnParts } from "@tether-agent/tether/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { listen } from "@tether-agent/tether/node";
import { agentFailures } from "../helpers/agent-failures.ts";
import { createScriptedApp, openPanel, type ScriptedApp } from "../helpers/scripted-app.ts";
import { apartFromOtherTabs } from "../helpers/stale-tab.ts";

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** The app served over HTTP, and sessions (tabs) on one of its threads; a `stale` tab hears nothing of the others' runs. */
async function served(app: ScriptedApp) {
  const server = await listen(app.tether.app, { port: 0, host: "127.0.0.1" });
  servers.push(server);
  const tab = (threadId: string, { stale = false, fetch: doFetch }: { stale?: boolean; fetch?: typeof fetch } = {}) => {
    const create = () =>
      createAgentSession({
        api: `${server.url}/api`,
        agentId: "test",
        threadId,
        headers: { "x-user": "kim" },
        storage: createMemoryStorage(),
        ...(doFetch ? { fetch: doFetch } : {}),
      });
    return stale ? apartFromOtherTabs(create) : create();
  };
  const stored = async (threadId: string) =>
    (
      (await (await fetch(`${server.url}/api/threads/${threadId}`, { headers: { "x-user": "kim" } })).json()) as { messages: Array<{ content?: string }> }
    ).messages.map((message) => message.content);
  return { tab, stored };
}
const said = (session: AgentSession) => session.getState().messages.map((message) => message.content);
const failures = agentFailures();

describe("session.regenerate", () => {
  it("replaces the answer, and a refusal the server gave for a passing reason leaves the next Regenerate working", async () => {
    const app = await createScriptedApp([{ text: "First." }, { text: "Second." }]);
    const { tab } = await served(app);
    let down = false;
    const refuse = () =>
      new Response(JSON.stringify({ error: { code: "internal", message: "Something went wrong." } }), {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    const session = tab("t1", { fetch: (url, init) => (down ? Promise.resolve(refuse()) : fetch(url, init)) });
    await session.send("hello");
    expect(session.regenerableAnswer()).toBe(session.getState().messages.at(-1)!.id);

    down = true;
    await session.regenerate();
    expect(failures.take()).toMatchObject([{ code: "internal" }]);
    expect(said(session)).toEqual(["hello", "First."]); // not taken: the answer stands
    down = false;
    await session.regenerate();
    expect(session.getState().error).toBeUndefined();
    expect(said(session)).toEqual(["hello", "Second."]);
  });

  it("a stale tab is told the conversation moved on, shown it as it is, and can then regenerate the answer that is last now", async () => {
    const app = await createScriptedApp([{ text: "First." }, { text: "Welcome." }, { text: "Welcome again." }]);
    const { tab } = await served(app);
    const live = tab("t1");
    await live.send("hello");
    const stale = tab("t1", { stale: true });
    await stale.restore();
    await live.send("thanks");

    await stale.regenerate();
    expect(failures.take()).toMatchObject([{ code: "history_conflict" }]);
    expect(stale.getState().error).toMatchObject({ code: "history_conflict", message: expect.stringMatching(/moved on in another window/) });
    expect(said(stale)).toEqual(["hello", "First.", "thanks", "Welcome."]);
    await stale.regenerate();
    expect(stale.getState().error).toBeUndefined();
    expect(said(stale)).toEqual(["hello", "First.", "thanks", "Welcome again."]);
  });

  it("a tab still showing an answer another device replaced is caught up when it sends, and keeps its words to send again", async () => {
    const app = await createScriptedApp([{ text: "First." }, { text: "Second." }, { text: "Ok." }]);
    const { tab, stored } = await served(app);
    const phone = tab("t1");
    await phone.send("hello");
    const laptop = tab("t1", { stale: true });
    await laptop.restore();
    await phone.regenerate();

    await laptop.send("thanks");
    expect(failures.take()).toMatchObject([{ code: "history_conflict" }]);
    expect(laptop.getState().unsent).toMatchObject({
      text: "thanks",
      retryable: true,
      error: { code: "history_conflict", message: expect.stringMatching(/changed in another window/) },
    });
    expect(said(laptop)).toEqual(["hello", "Second.", "thanks"]);
    await laptop.retry();
    expect(laptop.getState().unsent).toBeUndefined();
    expect(await stored("t1")).toEqual(["hello", "Second.", "thanks", "Ok."]);
  });

  it("two tabs pressing Regenerate at once end up showing the thread as the server has it", async () => {
    const app = await createScriptedApp([{ text: "First." }, { text: "Second." }, { text: "Third." }], { chunkDelayMs: 20 });
    const { tab, stored } = await served(app);
    const a = tab("t1");
    await a.send("hello");
    const b = tab("t1");
    await b.restore();
    await Promise.all([a.regenerate(), b.regenerate()]);
    // The tab that comes second may be refused, or may come once the first run has ended.
    for (const failure of failures.take()) expect(failure).toMatchObject({ code: "run_in_progress" });
    await expect.poll(async () => [said(a), said(b)]).toEqual([await stored("t1"), await stored("t1")]);
    expect(await stored("t1")).toEqual(["hello", "Second."]);
  });

  it("is not offered, and refused, while a browser call an approval started is still being carried out; its outcome reaches the thread", async () => {
    const approvedPanel = { ...openPanel, needsApproval: true };
    const app = await createScriptedApp(
      [{ text: "I will open billing once you approve.", toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] }, { text: "Billing is open." }],
      { browserTools: [approvedPanel] },
    );
    const { tab, stored } = await served(app);
    const session = tab("t1");
    let finish!: () => void;
    session.registerTool({
      spec: openPanel,
      execute: () =>
        new Promise<Awaited<ReturnType<BrowserToolHandler["execute"]>>>((resolve) => (finish = () => resolve({ status: "succeeded", stage: "displayed" }))),
    });
    await session.send("open billing");
    expect(session.regenerableAnswer()).toBeUndefined(); // an approval waits
    const answered = session.answer(session.getState().interrupts[0]!.id, { approved: true });
    await expect.poll(() => session.getState().activities.map((activity) => activity.status)).toContain("running");

    expect(session.regenerableAnswer()).toBeUndefined();
    await expect(session.regenerate()).rejects.toMatchObject({ code: "run_in_progress" });
    finish();
    await answered;
    expect(session.getState().error).toBeUndefined();
    expect((await stored("t1")).at(-1)).toBe("Billing is open.");
  });

  it("with a stateless agent, the replaced answer stays gone after a reload and never reaches the model again", async () => {
    const app = await createScriptedApp([{ text: "First." }, { text: "Second." }, { text: "Ok." }], { agent: { history: "client" } });
    const { tab } = await served(app);
    const session = tab("t1");
    await session.send("hello");
    await session.regenerate();
    expect(said(session)).toEqual(["hello", "Second."]);

    const reloaded = tab("t1");
    await reloaded.restore();
    expect(said(reloaded)).toEqual(["hello", "Second."]);
    await reloaded.send("thanks");
    expect(JSON.stringify(app.model.calls[2]!.prompt)).not.toContain("First.");
  });

  it("asks again a question whose new answer failed: Regenerate sits beside the question", async () => {
    const app = await createScriptedApp([
      { text: "First." },
      { parts: [{ type: "stream-start", warnings: [] }], throwAfter: new Error("provider overloaded") },
      { text: "Third." },
    ]);
    const { tab, stored } = await served(app);
    const session = tab("t1");
    await session.send("hello");
    await session.regenerate();
    expect(session.getState().error).toBeDefined();
    const question = session.getState().messages.at(-1)!;
    expect(question.role).toBe("user");
    expect(session.regenerableAnswer()).toBe(question.id);
    await session.regenerate();
    expect(await stored("t1")).toEqual(["hello", "Third."]);
  });

  it("a stale tab refused because the replaced answer now waits for an approval is shown the approval, and Regenerate stops being offered", async () => {
    const close = defineTool({
      name: "closeRequest",
      description: "Closes.",
      parameters: z.object({ id: z.string() }),
      needsApproval: true,
      execute: () => "closed",
    });
    const app = await createScriptedApp([{ text: "Shall I close R-1?" }, { toolCalls: [{ toolName: "closeRequest", input: { id: "R-1" } }] }], {
      tools: [close],
    });
    const { tab } = await served(app);
    const phone = tab("t1");
    await phone.send("close R-1");
    const laptop = tab("t1", { stale: true });
    await laptop.restore();
    await phone.regenerate();

    await laptop.regenerate();
    expect(failures.take()).toMatchObject([{ code: "interrupt_pending" }]);
    expect(laptop.getState().error).toMatchObject({ code: "interrupt_pending", message: expect.stringMatching(/waits for an approval, shown here/) });
    expect(laptop.getState().interrupts).toHaveLength(1);
    expect(laptop.regenerableAnswer()).toBeUndefined();
  });

  it("a send refused for a reason that is not another window (another agent's thread) says the server's words and loads nothing of it", async () => {
    const tether = await createTetherApp({
      agents: ["billing", "support"].map((id) => defineAgent({ id, model: createScriptedModel([{ text: "Your invoice is 40 EUR." }]) })),
      authenticate: () => ({ id: "kim", orgScope: "ORG-01", roles: [] }),
      store: createMemoryRunStore(),
      logger: silentLogger,
    });
    const server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
    servers.push(server);
    const panel = (agentId: string) => createAgentSession({ api: `${server.url}/api`, agentId, threadId: "page-42", storage: createMemoryStorage() });
    await panel("billing").send("what is my invoice?");
    const support = panel("support");
    await support.send("my badge does not work");
    expect(failures.take()).toMatchObject([{ code: "history_conflict" }]);
    expect(said(support)).toEqual(["my badge does not work"]);
    expect(support.getState().unsent).toMatchObject({
      retryable: false,
      error: { code: "history_conflict", message: expect.stringMatching(/belongs to agent "billing"/) },
    });
  });
  it("is not offered while the page holds the outcome of a screen it opened for an answer whose run then broke: that outcome goes to the model first", async () => {
    const opening = { text: "Opening billing.", toolCalls: [{ toolName: "openPanel", input: { panel: "billing" }, toolCallId: "call_open" }] };
    const app = await createScriptedApp([
      () => ({ parts: turnParts(opening).filter((part) => part.type !== "finish"), throwAfter: new Error("connection reset") }),
      { text: "Billing is open." },
    ]);
    const { tab } = await served(app);
    const session = tab("t1");
    let opened = 0;
    session.registerTool({ spec: openPanel, execute: () => (opened++, { status: "succeeded", stage: "displayed" }) });
    await session.send("open billing");
    expect(opened).toBe(1);
    expect(session.getState().error).toBeDefined();
    expect(session.regenerableAnswer()).toBeUndefined();
    await expect(session.regenerate()).rejects.toMatchObject({ code: "history_conflict" });
    await session.send("is it open?");
    expect(JSON.stringify(app.model.calls[1]!.prompt)).toContain("succeeded");
  });
});
