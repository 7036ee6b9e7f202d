import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentSession, type BrowserToolHandler } from "@tether-agent/tether/client";
import { createMemoryRunStore, type RunStore } from "@tether-agent/tether/store";
import { defineTool } from "@tether-agent/tether/server";
import { createMemoryStorage, parseSseFrames } from "@tether-agent/tether/testing";
import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { listen } from "@tether-agent/tether/node";
import { createScriptedApp, openPanel, types } from "./helpers/scripted-app.ts";
import { apartFromOtherTabs } from "./helpers/stale-tab.ts";

const transfer = (executed: number[] = []) =>
  defineTool({
    name: "transfer",
    description: "Moves money.",
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => {
      executed.push(amount);
      return { transferred: amount };
    },
  });
const succeeded = (): ReturnType<BrowserToolHandler["execute"]> => ({ status: "succeeded", stage: "displayed" });

/** A store that fails a method a given number of times, as a full disk or a dropped database connection would. */
function failing(store: RunStore, method: "finishRun" | "appendEvents", times: number): RunStore {
  let left = times;
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== method) return value;
      return (...args: unknown[]) => (left-- > 0 ? Promise.reject(new Error(`${method} failed`)) : (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

/** kim pays 10 (a transfer that needs approval), then the receipt opens in the browser. */
async function paymentWithReceipt() {
  const executed: number[] = [];
  const app = await createScriptedApp(
    [
      { toolCalls: [{ toolName: "transfer", input: { amount: 10 } }] },
      { toolCalls: [{ toolName: "openPanel", input: { panel: "receipt" } }] },
      { text: "Receipt open." },
    ],
    { tools: [transfer(executed)] },
  );
  return { app, executed };
}

async function sessions(app: Awaited<ReturnType<typeof createScriptedApp>>, threadId: string) {
  const server = await listen(app.tether.app, { port: 0, host: "127.0.0.1" });
  /** A tab of the thread; a `stale` one hears nothing of the other tabs' runs (as a window on another device). */
  const open = ({ stale = false } = {}) => {
    const create = () =>
      createAgentSession({
        api: `${server.url}/api`,
        agentId: "test",
        threadId,
        headers: { "x-user": "kim" },
        storage: createMemoryStorage(),
        drift: "ignore",
      });
    return stale ? apartFromOtherTabs(create) : create();
  };
  return { server, open };
}

describe("robustness", () => {
  it("survives the store failing while a run ends: the client still gets RUN_ERROR", async () => {
    const app = await createScriptedApp(
      [
        {
          parts: [
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Hi" },
          ],
          throwAfter: new Error("model down"),
        },
      ],
      {
        store: failing(createMemoryRunStore(), "finishRun", 1),
      },
    );
    const frames = await app.run({ threadId: "t", runId: "r1", messages: [{ id: "u", role: "user", content: "hi" }] });
    expect(types(frames).at(-1)).toBe("RUN_ERROR");
    await app.tether.runner.settled("r1"); // and no unhandled rejection takes the process down
  });

  it("keeps a run's last events when the store fails once as the run ends", async () => {
    const app = await createScriptedApp([{ text: "Hello." }], { store: failing(createMemoryRunStore(), "appendEvents", 1) });
    const frames = await app.run({ threadId: "t", runId: "r1", messages: [{ id: "u", role: "user", content: "hi" }] });
    await app.tether.runner.settled("r1");
    expect((await app.store.readEvents("r1")).map((stored) => stored.event.type)).toEqual(types(frames));
  });

  it("does not let a second window act again on an approval another window already answered", async () => {
    const { app, executed } = await paymentWithReceipt();
    const { server, open } = await sessions(app, "two-windows");
    try {
      const [executeA, executeB] = [vi.fn(succeeded), vi.fn(succeeded)];
      const a = open();
      a.registerTool({ spec: openPanel, execute: executeA });
      await a.send("pay 10");
      const b = open({ stale: true });
      b.registerTool({ spec: openPanel, execute: executeB });
      await b.restore();
      const [interrupt] = b.getState().interrupts;
      await a.answer(interrupt!.id, { approved: true });
      await b.answer(interrupt!.id, { approved: true }); // stale: the same answer again
      expect(executed).toEqual([10]);
      expect(executeA).toHaveBeenCalledTimes(1);
      expect(executeB).not.toHaveBeenCalled();
      expect(b.getState().error).toBeUndefined();
      expect((await app.store.listRuns("two-windows")).map((run) => run.trigger?.kind)).toEqual(["user-message", "resume", "tool-result"]);
    } finally {
      await server.close();
    }
  });

  it("tells a second window of the same browser that the approval was answered, and it refuses to answer again", async () => {
    const { app, executed } = await paymentWithReceipt();
    const { server, open } = await sessions(app, "two-tabs");
    try {
      const a = open();
      a.registerTool({ spec: openPanel, execute: vi.fn(succeeded) });
      await a.send("pay 10");
      const b = open();
      const executeB = vi.fn(succeeded);
      b.registerTool({ spec: openPanel, execute: executeB });
      await b.restore();
      const [interrupt] = b.getState().interrupts;
      await a.answer(interrupt!.id, { approved: true });
      // The tabs' channel tells b a run started; b shows the thread as it now is.
      await vi.waitFor(() => expect(b.getState().interrupts).toEqual([]));
      await expect(b.answer(interrupt!.id, { approved: true })).rejects.toMatchObject({ code: "interrupt_unknown" });
      expect(executed).toEqual([10]);
      expect(executeB).not.toHaveBeenCalled();
      expect((await app.store.listRuns("two-tabs")).map((run) => run.trigger?.kind)).toEqual(["user-message", "resume", "tool-result"]);
    } finally {
      await server.close();
    }
  });

  it("reports a browser call performed in a step that also asked for approval, and the approval still goes through", async () => {
    const executed: number[] = [];
    const app = await createScriptedApp(
      [
        {
          toolCalls: [
            { toolName: "transfer", input: { amount: 10 } },
            { toolName: "openPanel", input: { panel: "billing" } },
          ],
        },
        { text: "Done." },
        { text: "Hello." },
      ],
      { tools: [transfer(executed)] },
    );
    const { server, open } = await sessions(app, "mixed");
    try {
      const session = open();
      const execute = vi.fn(succeeded);
      session.registerTool({ spec: openPanel, execute });
      await session.send("pay and open billing");
      expect(execute).toHaveBeenCalledTimes(1);
      await session.answer(session.getState().interrupts[0]!.id, { approved: true });
      expect(session.getState().error).toBeUndefined();
      expect(executed).toEqual([10]);
      await session.send("hello");
      expect(session.getState().error).toBeUndefined();
      const results = (await app.store.getMessages("mixed"))
        .filter((message) => message.role === "tool")
        .map((message) => JSON.parse(message.content as string));
      expect(results).toEqual([{ transferred: 10 }, { status: "succeeded", stage: "displayed" }]);
    } finally {
      await server.close();
    }
  });

  it("answers the approvals of a run cancelled before it asked them, so the thread goes on", async () => {
    const slow = defineTool({
      name: "slow",
      description: "Takes a while.",
      parameters: z.object({}),
      execute: () => new Promise((resolve) => setTimeout(() => resolve({ ok: true }), 200)),
    });
    const app = await createScriptedApp(
      [
        {
          toolCalls: [
            { toolName: "slow", input: {} },
            { toolName: "transfer", input: { amount: 5 } },
          ],
        },
        { text: "Hello." },
      ],
      {
        tools: [slow, transfer()],
      },
    );
    const response = await app.post({ threadId: "c", runId: "r1", messages: [{ id: "u", role: "user", content: "go" }] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await app.tether.app.request("/api/runs/r1/cancel", { method: "POST", headers: { "x-user": "kim", "Content-Type": "application/json" }, body: "{}" });
    const frames = parseSseFrames(await response.text());
    expect(frames.at(-1)!.data.outcome).toEqual({ type: "cancelled" });
    expect(await app.store.getPendingInterrupts("c")).toEqual([]);
    const next = await app.post({
      threadId: "c",
      runId: "r2",
      messages: [
        { id: "u", role: "user", content: "go" },
        { id: "u2", role: "user", content: "hello" },
      ],
    });
    expect(next.status).toBe(200);
    expect(parseSseFrames(await next.text()).at(-1)!.data.type).toBe("RUN_FINISHED");
  });
});

/**
 * A client that gives up while its request waits in a busy server's accept
 * queue: it connects, sends the whole run request and hangs up, all while
 * the server's event loop is blocked. The client runs in a process of its
 * own, so the blocked loop holds only the server.
 */
const GIVE_UP_CLIENT = `
const { connect } = require("node:net");
const { writeFileSync } = require("node:fs");
const [port, body, goneFile] = [Number(process.argv[1]), process.argv[2], process.argv[3]];
process.stdin.once("data", () => {
  const socket = connect(port, "127.0.0.1", () => {
    const head = "POST /api/agents/test/run HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nContent-Type: application/json\\r\\nx-user: kim\\r\\nContent-Length: " + Buffer.byteLength(body) + "\\r\\n\\r\\n";
    socket.write(head + body, () => {
      socket.destroy();
      writeFileSync(goneFile, "");
    });
  });
});
console.log("ready");
`;

describe("a client that hung up before its run started", () => {
  it("is not given a run (Node): no model call, nothing stored, a 499 client_gone and a line in the log", async () => {
    const logged: string[] = [];
    const logger = { info: (message: string) => logged.push(message), warn() {}, error() {} };
    const app = await createScriptedApp([{ text: "Nobody will read this." }], { app: { logger } });
    const statuses: number[] = [];
    const outer = new Hono();
    outer.use(async (c, next) => {
      await next();
      statuses.push(c.res.status);
    });
    outer.route("/", app.tether.app);
    const server = await listen(outer, { port: 0, host: "127.0.0.1" });
    const body = JSON.stringify({
      threadId: "t-gone",
      runId: "r-gone",
      messages: [{ id: "u", role: "user", content: "hi" }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    });
    const goneFile = join(mkdtempSync(join(tmpdir(), "tether-gone-")), "gone");
    const client = spawn(process.execPath, ["-e", GIVE_UP_CLIENT, new URL(server.url).port, body, goneFile], { stdio: ["pipe", "pipe", "inherit"] });
    try {
      await new Promise<void>((resolve) => client.stdout!.once("data", () => resolve()));
      client.stdin!.write("go\n");
      // The server's loop is held (the kernel still completes the connection) until the client has sent its request and hung up.
      const deadline = Date.now() + 10_000;
      while (!existsSync(goneFile) && Date.now() < deadline);
      expect(existsSync(goneFile)).toBe(true);
      for (let i = 0; i < 500 && statuses.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(statuses).toEqual([499]);
      expect(logged).toEqual(["Run r-gone of thread t-gone was not started: its client hung up while the request waited."]);
      expect(app.model.calls).toHaveLength(0);
      expect(await app.store.getRun("r-gone")).toBeUndefined();
    } finally {
      client.kill();
      await server.close();
    }
  });

  it("is given its run on a Fetch-API host even when the request's signal has aborted: some hosts abort it once the body is read", async () => {
    const app = await createScriptedApp([{ text: "Here." }]);
    const response = await app.tether.app.request(
      new Request("http://localhost/api/agents/test/run", {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-user": "kim" },
        body: JSON.stringify({ threadId: "t-fetch", runId: "r-fetch", messages: [{ id: "u", role: "user", content: "hi" }], tools: [], context: [] }),
        signal: AbortSignal.abort(),
      }),
    );
    expect(response.status).toBe(200);
    expect(types(parseSseFrames(await response.text())).at(-1)).toBe("RUN_FINISHED");
    expect(app.model.calls).toHaveLength(1);
  });

  it("still gets its run when it stays", async () => {
    const app = await createScriptedApp([{ text: "Here." }]);
    const server = await listen(app.tether.app, { port: 0, host: "127.0.0.1" });
    try {
      const response = await fetch(`${server.url}/api/agents/test/run`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-user": "kim" },
        body: JSON.stringify({ threadId: "t-stays", runId: "r-stays", messages: [{ id: "u", role: "user", content: "hi" }], tools: [], context: [] }),
      });
      expect(types(parseSseFrames(await response.text())).at(-1)).toBe("RUN_FINISHED");
      expect(app.model.calls).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
