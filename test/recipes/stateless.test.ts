import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HttpAgentFetchFn } from "@ag-ui/client";
import type { Message, RunAgentInput } from "@ag-ui/core";
import { createAgentSession, type AgentSession } from "@tether-agent/tether/client";
import { type ToolOutcome } from "@tether-agent/tether/protocol";
import { createMemoryStorage, parseSseFrames, type SseFrame } from "@tether-agent/tether/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { orderIngredients, saveToCookbook, type OfferRecipesArgs } from "../../apps/recipes/agent/index.ts";
import { DESKTOP_OFFER } from "../../apps/recipes/web/src/tool-sets.ts";
import { freePort, startServerProcess, tokenFor, type ServerProcess } from "../helpers/server-process.ts";

/**
 * The Recipes agent is stateless: the client owns the history, so the next
 * turn may land on another server process (one that never saw the thread,
 * on an empty data folder), or on the same one after `kill -9` and a restart,
 * and the conversation goes on as if nothing happened. Real processes; Tether's
 * own browser session, whose requests a small balancer sends to whichever
 * process the test chooses (as a load balancer would).
 *
 * What "an approved order executes once" means, exactly:
 * - at the server: per approval, the approved call is handed to the browser
 *   in exactly one run of a store (the answer is recorded in the transaction
 *   that starts that run); the same answer again to that store gets that
 *   run's events again (`X-Tether-Repeat-Of`), not a new run. A process that
 *   never saw the answer (no shared store) refuses it when the history sent
 *   already holds the call's result; sent the very request that carried the
 *   approval (a retry), it cannot know and hands the call over again;
 * - in the browser: the session's tool runner executes each call id once
 *   (its journal; see src/client tests);
 * - in the app: the order API places one order per requestId, and the
 *   browser tool sends the call's id as the requestId.
 */

const LB = "http://balancer.invalid";
const SAM = { Authorization: `Bearer ${tokenFor("sam")}` };

const dirs: string[] = [];
const processes: ServerProcess[] = [];
const emptyDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "tether-recipes-"));
  dirs.push(dir);
  return dir;
};
async function start(dataDir: string, options: { port?: number; secret?: string } = {}): Promise<ServerProcess> {
  const server = await startServerProcess({ dataDir, ...options });
  processes.push(server);
  return server;
}
afterEach(async () => {
  // Even when a test failed half-way: no process outlives its test.
  await Promise.all(processes.splice(0).map((server) => server.stop("SIGKILL")));
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Balancer {
  /** Where the next request goes. */
  target: string;
  fetch: HttpAgentFetchFn;
  /** Every request, with the process that got it and, for runs, the stream it answered with. */
  requests: Array<{ target: string; path: string; body?: string; stream?: Promise<string> }>;
  /** The run requests, parsed, with the process that got each and what it streamed. */
  runs(): Array<{ target: string; input: RunAgentInput; stream: Promise<string> }>;
}

function balancer(target: string): Balancer {
  const lb: Balancer = {
    target,
    requests: [],
    fetch: async (url, init) => {
      const real = url.replace(LB, lb.target);
      const request: Balancer["requests"][number] = {
        target: lb.target,
        path: new URL(real).pathname,
        ...(typeof init.body === "string" ? { body: init.body } : {}),
      };
      lb.requests.push(request);
      const response = await fetch(real, init);
      if (request.path.endsWith("/run")) request.stream = response.clone().text();
      return response;
    },
    runs: () =>
      lb.requests
        .filter((request) => request.path === "/api/agents/recipes/run")
        .map((request) => ({ target: request.target, input: JSON.parse(request.body!) as RunAgentInput, stream: request.stream! })),
  };
  return lb;
}

/** What the test's browser tools did, as the Recipes page would do it. */
interface Browser {
  cards: Array<Array<{ id: string; title: string }>>;
  saved: string[];
  ordered: Array<{ toolCallId: string; recipeId: string; servings: number }>;
}

/**
 * Sam's desktop session, through the balancer. The browser tools act as the
 * page does: cards are rendered (render-only), saving and ordering go through
 * the app's own API on `app()` with the call's id as the order's requestId.
 */
function samDesktop(lb: Balancer, threadId: string, app: () => string, hooks: { afterSave?(): void } = {}): { session: AgentSession; browser: Browser } {
  const browser: Browser = { cards: [], saved: [], ordered: [] };
  const session = createAgentSession({
    api: `${LB}/api`,
    agentId: "recipes",
    threadId,
    headers: SAM,
    fetch: lb.fetch,
    storage: createMemoryStorage(),
    drift: "ignore",
  });
  const appApi = async (path: string, body: unknown) => {
    const response = await fetch(`${app()}/api/recipes${path}`, {
      method: "POST",
      headers: { ...SAM, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return response.json();
  };
  session.registerTool({
    spec: DESKTOP_OFFER,
    execute: ({ recipes }: OfferRecipesArgs): ToolOutcome => {
      browser.cards.push(recipes.map(({ id, title }) => ({ id, title })));
      return { status: "succeeded", message: `rendered ${recipes.length} recipe cards` };
    },
  });
  session.registerTool({
    spec: saveToCookbook,
    execute: async ({ recipeId }): Promise<ToolOutcome> => {
      browser.saved.push(recipeId);
      const { alreadySaved } = (await appApi("/cookbook", { recipeId })) as { alreadySaved: boolean };
      hooks.afterSave?.();
      return { status: "succeeded", data: { alreadySaved } };
    },
  });
  session.registerTool({
    spec: orderIngredients,
    execute: async ({ recipeId, servings }, { toolCallId }): Promise<ToolOutcome> => {
      browser.ordered.push({ toolCallId, recipeId, servings });
      const { order } = (await appApi("/orders", { recipeId, servings, requestId: toolCallId })) as { order: { orderId: string } };
      return { status: "succeeded", data: { orderId: order.orderId } };
    },
  });
  return { session, browser };
}

const lastWords = (session: AgentSession) =>
  (session
    .getState()
    .messages.filter((message) => message.role === "assistant" && message.content)
    .at(-1)?.content as string | undefined) ?? "";
const callsIn = (messages: Message[], toolName: string) =>
  messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).filter((call) => call.function.name === toolName);

async function send(session: AgentSession, text: string) {
  await session.send(text);
  expect(session.getState().error, text).toBeUndefined();
}

/** Turn 1: leftover rice → three cards, rendered by the browser. Returns the offer_recipes call. */
async function askForIdeas(session: AgentSession, browser: Browser) {
  await send(session, "Something quick with leftover rice?");
  expect(browser.cards).toEqual([[expect.objectContaining({ id: "r-204", title: "Egg fried rice" }), expect.anything(), expect.anything()]]);
  const [offer] = callsIn(session.getState().messages, "offer_recipes");
  return offer!;
}

/**
 * The bookkeeping message of a render-only tool, exactly as Tether's client
 * sends it with the next run: a fresh id, role `tool`, the call's id, the
 * outcome as JSON text.
 */
const bookkeepingFor = (toolCallId: string) => ({
  id: expect.any(String),
  role: "tool",
  toolCallId,
  content: JSON.stringify({ status: "succeeded", message: "rendered 3 recipe cards" }),
});

// Each test starts up to four demo processes, each importing ADK for workdesk-adk: seconds apiece on a busy machine.
describe("a Recipes conversation across server processes", { timeout: 90_000 }, () => {
  it("goes on when the next turn lands on another process on an empty data folder, and the browser's follow-up back on the first", async () => {
    const [a, b] = await Promise.all([start(emptyDir()), start(emptyDir())]);
    const lb = balancer(a.url);
    const threadId = "stateless-two-processes";
    const { session, browser } = samDesktop(lb, threadId, () => a.url, { afterSave: () => (lb.target = a.url) });
    const offer = await askForIdeas(session, browser);

    // B never saw this thread.
    expect((await fetch(`${b.url}/api/threads/${threadId}`, { headers: SAM })).status).toBe(404);
    lb.target = b.url;
    // "save it" after three cards: B knows which three only from the history the client sent.
    await send(session, "save it");
    expect(lastWords(session)).toBe("Which one should I save: Egg fried rice, Rice and bean burrito bowl, Vegetable fried rice?");
    expect(browser.saved).toEqual([]);

    await send(session, "save egg fried rice");
    expect(browser.saved).toEqual(["r-204"]);
    expect(callsIn(session.getState().messages, "save_to_cookbook").map((call) => JSON.parse(call.function.arguments))).toEqual([{ recipeId: "r-204" }]);
    // The outcome went back to A, whose store never had B's run: a continuation whose parent ran elsewhere.
    expect(lastWords(session)).toBe("Saved Egg fried rice to your cookbook.");

    const runs = lb.runs();
    expect(runs.map((run) => [run.target, run.input.forwardedProps.tether.trigger.kind])).toEqual([
      [a.url, "user-message"],
      [b.url, "user-message"],
      [b.url, "user-message"],
      [a.url, "tool-result"],
    ]);
    // B was sent the history as the client holds it: A's search, its cards, and their bookkeeping message right after them.
    const sent = runs[1]!.input.messages;
    expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "user"]);
    expect(sent[4]).toEqual(bookkeepingFor(offer.id));
    expect(callsIn(sent, "offer_recipes")).toEqual([offer]);
    expect(runs[3]!.input.forwardedProps.tether.trigger.parentRunId).toBe(runs[2]!.input.runId);
  });

  it("goes on after the process is killed with SIGKILL and started again on the same data folder", async () => {
    const dataDir = emptyDir();
    const port = await freePort();
    let server = await start(dataDir, { port });
    const lb = balancer(server.url);
    const { session, browser } = samDesktop(lb, "stateless-restart", () => server.url);
    await askForIdeas(session, browser);

    await server.stop("SIGKILL");
    server = await start(dataDir, { port });

    await send(session, "save it");
    expect(lastWords(session)).toBe("Which one should I save: Egg fried rice, Rice and bean burrito bowl, Vegetable fried rice?");
    await send(session, "save egg fried rice");
    expect(browser.saved).toEqual(["r-204"]);
    expect(lastWords(session)).toBe("Saved Egg fried rice to your cookbook.");
    const cookbook = await (await fetch(`${server.url}/api/recipes/cookbook`, { headers: SAM })).json();
    expect(cookbook.cookbook).toEqual([expect.objectContaining({ recipeId: "r-204", title: "Egg fried rice" })]);
  });

  it("takes an approval asked by one process on another, hands the order to the browser once, and the order is placed once", async () => {
    // C will never see the approval; the stranger signs with another secret.
    const [a, b, c, stranger] = await Promise.all([start(emptyDir()), start(emptyDir()), start(emptyDir()), start(emptyDir(), { secret: "another-secret" })]);
    const lb = balancer(a.url);
    const threadId = "stateless-approval";
    // The app's orders live with B's kitchen, whichever process runs the agent.
    const { session, browser } = samDesktop(lb, threadId, () => b.url);

    await send(session, "order the ingredients for egg fried rice for 4");
    const [interrupt] = session.getState().interrupts;
    expect(interrupt).toMatchObject({ id: expect.stringMatching(/^it1\./), reason: "tool_approval" });
    expect(browser.ordered).toEqual([]);
    const [orderCall] = callsIn(session.getState().messages, "order_ingredients");
    expect(JSON.parse(orderCall!.function.arguments)).toEqual({ recipeId: "r-204", servings: 4 });
    expect(interrupt!.toolCallId).toBe(orderCall!.id);

    lb.target = b.url;
    await session.answer(interrupt!.id, { approved: true });
    expect(session.getState().error).toBeUndefined();
    // B handed the approved call to the browser, which ran it once, and the agent spoke from its outcome.
    expect(browser.ordered).toEqual([{ toolCallId: orderCall!.id, recipeId: "r-204", servings: 4 }]);
    expect(lastWords(session)).toBe("Ordered the ingredients for Egg fried rice (4 servings). Your order number is O-00001.");

    const [asked, approved, reported] = lb.runs();
    expect(asked!.target).toBe(a.url);
    expect(approved).toMatchObject({ target: b.url, input: { resume: [{ interruptId: interrupt!.id, status: "resolved", payload: { approved: true } }] } });
    expect(reported!.input.forwardedProps.tether.trigger).toMatchObject({ kind: "tool-result", toolCallIds: [orderCall!.id] });

    const post = (server: ServerProcess, input: RunAgentInput, runId: string, headers = SAM) =>
      fetch(`${server.url}/api/agents/recipes/run`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ ...input, runId }),
      });
    const framesOf = async (response: Response): Promise<SseFrame[]> => parseSseFrames(await response.text());
    const finishedOf = (frames: SseFrame[]) => frames.at(-1)!.data;

    // What B streamed for the approval: the approved call, pending for the browser, and nothing from the model yet.
    const streamed = parseSseFrames(await approved!.stream);
    expect(streamed.map((frame) => frame.data.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    expect(finishedOf(streamed)).toMatchObject({ outcome: { type: "success", pendingToolCallIds: [orderCall!.id] } });

    // The same approval again to B (a double click, a retry): the run that took it, again, not a new run.
    const again = await post(b, approved!.input, "approval-again-to-b");
    expect(again.status).toBe(200);
    expect(again.headers.get("x-tether-repeat-of")).toBe(approved!.input.runId);
    const repeated = await framesOf(again);
    expect(repeated.every((frame) => frame.id!.startsWith(`${approved!.input.runId}:`))).toBe(true);
    expect(finishedOf(repeated)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success", pendingToolCallIds: [orderCall!.id] } });
    expect((await fetch(`${b.url}/api/runs/approval-again-to-b/record`, { headers: SAM })).status).toBe(404);

    // The same approval with the history as the client holds it now (the order's result in it), to a
    // process that never saw it: refused, since the history itself says it was acted on.
    const now = { ...approved!.input, messages: session.getState().messages };
    const toC = await post(c, now, "approval-again-to-c");
    expect(toC.status).toBe(409);
    expect((await toC.json()).error).toMatchObject({ code: "resume_conflict", message: expect.stringContaining(orderCall!.id) });

    // The very request that carried the approval, retried on C: C cannot know it was acted on, and hands the call over again…
    const retried = await framesOf(await post(c, approved!.input, "approval-retried-on-c"));
    expect(finishedOf(retried)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success", pendingToolCallIds: [orderCall!.id] } });
    // …and the order API, which the browser tool calls with the call's id as the requestId, places no second order.
    const replaced = await fetch(`${b.url}/api/recipes/orders`, {
      method: "POST",
      headers: { ...SAM, "Content-Type": "application/json" },
      body: JSON.stringify({ recipeId: "r-204", servings: 4, requestId: orderCall!.id }),
    });
    expect(await replaced.json()).toMatchObject({ repeated: true, order: { orderId: "O-00001" } });
    const orders = (await (await fetch(`${b.url}/api/recipes/orders`, { headers: SAM })).json()).orders;
    expect(orders).toEqual([expect.objectContaining({ orderId: "O-00001", recipeId: "r-204", servings: 4 })]);
    expect(browser.ordered).toHaveLength(1);

    // The approval is carried by the secret: a process with another secret does not honour it.
    const refused = await post(stranger, approved!.input, "approval-to-stranger", { Authorization: `Bearer ${tokenFor("sam", "another-secret")}` });
    expect(refused.status).toBe(404);
    expect((await refused.json()).error.code).toBe("interrupt_unknown");
  });
});

describe("the Recipes order API", () => {
  it("places one order per requestId, however often it is sent, and a new one for another requestId", async () => {
    const server = await start(emptyDir());
    const order = (requestId: string, user = "sam") =>
      fetch(`${server.url}/api/recipes/orders`, {
        method: "POST",
        headers: { Authorization: `Bearer ${tokenFor(user)}`, "Content-Type": "application/json" },
        body: JSON.stringify({ recipeId: "r-204", servings: 2, requestId }),
      });
    const first = await (await order("call_order_1")).json();
    const second = await (await order("call_order_1")).json();
    expect(first).toMatchObject({ repeated: false, order: { orderId: "O-00001", recipeId: "r-204", servings: 2 } });
    expect(second).toEqual({ ...first, repeated: true });
    const third = await (await order("call_order_2")).json();
    expect(third).toMatchObject({ repeated: false, order: { orderId: "O-00002" } });
    const orders = (await (await fetch(`${server.url}/api/recipes/orders`, { headers: SAM })).json()).orders;
    expect(orders.map((placed: { orderId: string }) => placed.orderId)).toEqual(["O-00002", "O-00001"]);
    // A guest has no orders to place.
    const guest = await order("call_order_3", "guest");
    expect(guest.status).toBe(403);
    expect((await guest.json()).error.code).toBe("forbidden");
  });
});
