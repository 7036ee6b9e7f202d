import { HttpAgent, buildResumeArray, type BaseEvent } from "@ag-ui/client";
import { defineState, defineTool, type ServerTool } from "@tether-agent/tether/server";
import type { ScriptedStep } from "@tether-agent/tether/testing";
import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import { EventSchemas, HttpAgent as HttpAgent0 } from "ag-ui-client-0.0";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import type { RunStore } from "@tether-agent/tether/store";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedApp, type ScriptedApp } from "../helpers/scripted-app.ts";

/**
 * Shared state over the unmodified `@ag-ui/client` (and the 0.0.x one CopilotKit pins): the run opens
 * with the thread's state, each change a tool makes streams as a delta the client's own applyPatch
 * lands on the server's value, the store and the record keep it, and a person's edit between runs
 * reaches the model.
 */

const recipeState = defineState(
  z.object({
    recipe: z.object({ title: z.string(), servings: z.number().int().positive(), ingredients: z.array(z.string()) }),
  }),
  { initial: { recipe: { title: "Soup", servings: 2, ingredients: ["leek"] } } },
);

const tools: ServerTool[] = [
  defineTool({
    name: "add_ingredients",
    description: "Adds ingredients to the recipe, one at a time.",
    parameters: z.object({ ingredients: z.array(z.string()) }),
    async execute({ ingredients }, context) {
      const state = recipeState.in(context);
      for (const ingredient of ingredients) {
        state.patch([{ op: "add", path: "/recipe/ingredients/-", value: ingredient }]);
        await sleep(1);
      }
      return { added: ingredients.length };
    },
  }),
  defineTool({
    name: "clear",
    description: "Empties the ingredient list, once a person approves.",
    parameters: z.object({}),
    needsApproval: true,
    execute: (_, context) => {
      recipeState.in(context).patch([{ op: "replace", path: "/recipe/ingredients", value: [] }]);
      return { cleared: true };
    },
  }),
  defineTool({
    name: "rename",
    description: "Renames the recipe and sets its servings.",
    parameters: z.object({ title: z.string(), servings: z.number() }),
    execute: ({ title, servings }, context) => {
      const state = recipeState.in(context);
      state.set({ recipe: { ...state.get().recipe, title, servings } });
      return { renamed: title };
    },
  }),
];

/** A step that calls both tools at once, and one that answers in words. */
const cook: ScriptedStep[] = [
  {
    toolCalls: [
      { toolName: "add_ingredients", input: { ingredients: ["potato", "salt", "pepper"] } },
      { toolName: "rename", input: { title: "Leek and potato soup", servings: 4 } },
    ],
  },
  { text: "Done." },
];
const cooked = { recipe: { title: "Leek and potato soup", servings: 4, ingredients: ["leek", "potato", "salt", "pepper"] } };

/** Every app the file makes, on the memory store or a SQLite file, closed at its end. */
const apps: ScriptedApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((made) => made.tether.close()));
});
async function appOn(steps: ScriptedStep[], storeKind: "memory" | "sqlite" = "memory") {
  const store: RunStore | undefined =
    storeKind === "sqlite" ? createSqliteRunStore({ filename: join(mkdtempSync(join(tmpdir(), "tether-state-")), "tether.db") }) : undefined;
  const made = await createScriptedApp(steps, { tools, agent: { state: recipeState }, ...(store ? { store } : {}) });
  apps.push(made);
  return made;
}
const fetchInto = (tether: ScriptedApp) => (url: string, init?: RequestInit) => Promise.resolve(tether.tether.app.request(url, init));
const clientOf = (tether: ScriptedApp, threadId: string, query = "") =>
  new HttpAgent({ url: `http://tether.test/api/agents/test/run${query}`, headers: { "x-user": "kim" }, threadId, fetch: fetchInto(tether) });
const get = async (tether: ScriptedApp, path: string) => (await tether.tether.app.request(path, { headers: { "x-user": "kim" } })).json();

async function run(agent: HttpAgent, text: string) {
  const events: BaseEvent[] = [];
  agent.addMessage({ id: `${agent.threadId}-u${agent.messages.length}`, role: "user", content: text });
  await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

const runIdOf = (events: BaseEvent[]) => (events[0] as BaseEvent & { runId: string }).runId;

/** The state events and the tool results, in stream order, each result named by its tool. */
function stateAndResults(events: BaseEvent[]): string[] {
  const names = new Map(events.flatMap((event) => (event.type === "TOOL_CALL_START" ? [[event.toolCallId, event.toolCallName] as const] : [])));
  return events.flatMap((event) => {
    if (event.type === "STATE_SNAPSHOT" || event.type === "STATE_DELTA") return [event.type];
    return event.type === "TOOL_CALL_RESULT" ? [`TOOL_CALL_RESULT ${names.get(event.toolCallId)}`] : [];
  });
}

describe.each(["memory", "sqlite"] as const)("shared state over the unmodified @ag-ui/client, on the %s store", (kind) => {
  const app = (steps: ScriptedStep[]) => appOn(steps, kind);

  it("opens a thread's run with its state, second after RUN_STARTED", async () => {
    const tether = await app([{ text: "Hello." }]);
    const events = await run(clientOf(tether, "open-1"), "hi");
    expect(events.slice(0, 2)).toMatchObject([{ type: "RUN_STARTED" }, { type: "STATE_SNAPSHOT", snapshot: recipeState.initial }]);
  });

  it("streams each change a tool makes, before that tool's result, and the client's state is the server's and the store's", async () => {
    const tether = await app(cook);
    const agent = clientOf(tether, "cook-1");
    const events = await run(agent, "make it a leek and potato soup for four");

    expect(stateAndResults(events)).toEqual([
      "STATE_SNAPSHOT",
      "STATE_DELTA",
      "STATE_DELTA",
      "TOOL_CALL_RESULT rename",
      "STATE_DELTA",
      "STATE_DELTA",
      "TOOL_CALL_RESULT add_ingredients",
    ]);
    expect(agent.state).toEqual(cooked);
    expect((await get(tether, "/api/threads/cook-1")).state).toEqual(cooked);
    expect((await tether.store.getRun(runIdOf(events)))?.state).toEqual(cooked);
    // The model saw the state it changed on its next step.
    expect(tether.model.calls[1]!.prompt[0]!.content).toContain(JSON.stringify(cooked));
  });

  it("gives an approved call the state too: its change streams before its result, and is stored", async () => {
    const tether = await app([{ toolCalls: [{ toolName: "clear", input: {} }] }, { text: "Cleared." }]);
    const agent = clientOf(tether, "clear-1");
    const asked = await run(agent, "clear the list");
    expect(asked.at(-3)).toMatchObject({ type: "STATE_SNAPSHOT", snapshot: recipeState.initial });
    const events: BaseEvent[] = [];
    const resume = buildResumeArray(agent.pendingInterrupts, { [agent.pendingInterrupts[0]!.id]: { status: "resolved", payload: { approved: true } } });
    await agent.runAgent({ resume }, { onEvent: ({ event }) => void events.push(event) });

    expect(stateAndResults([...asked, ...events]).slice(-3)).toEqual(["STATE_SNAPSHOT", "STATE_DELTA", "TOOL_CALL_RESULT clear"]);
    const cleared = { recipe: { ...recipeState.initial!.recipe, ingredients: [] } };
    expect(agent.state).toEqual(cleared);
    expect((await get(tether, "/api/threads/clear-1")).state).toEqual(cleared);
  });

  it("says in its capabilities that it sends state snapshots and deltas, kept between runs", async () => {
    const tether = await app([]);
    expect((await get(tether, "/api/agents/test/capabilities")).state).toEqual({ snapshots: true, deltas: true, persistentState: true });
  });

  it("refuses a state that breaks the schema with 400 invalid_state naming the path, and stores nothing", async () => {
    const tether = await app([]);
    const response = await tether.post({ threadId: "bad-1", runId: "bad-1-r1", state: { recipe: { title: 3, servings: 2, ingredients: [] } } });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({
      code: "invalid_state",
      message: `The request's state was refused for agent "test": it does not match the state schema: /recipe/title must be string.`,
    });
    expect(await tether.store.getThread("bad-1")).toBeUndefined();
    expect(await tether.store.getRun("bad-1-r1")).toBeUndefined();
  });

  it("takes the person's edit between runs: the model sees it, the record says who changed what, and ends with the final state", async () => {
    let prompt = "";
    const tether = await app([
      ...cook,
      (call) => {
        prompt = String(call.prompt[0]!.content);
        return { text: "Noted." };
      },
    ]);
    const agent = clientOf(tether, "edit-1");
    await run(agent, "cook");
    agent.setState({ recipe: { ...cooked.recipe, title: "Grandma's soup" } });
    const events = await run(agent, "what is it called now?");

    expect(prompt).toContain(`{"recipe":{"title":"Grandma's soup","servings":4`);
    expect(events[1]).toMatchObject({ type: "STATE_SNAPSHOT", snapshot: { recipe: { title: "Grandma's soup" } } });
    const record = (await get(tether, `/api/runs/${runIdOf(events)}/record`)) as RunRecordDocument;
    expect(record.input.stateEdit).toEqual([{ op: "replace", path: "/recipe/title", value: "Grandma's soup" }]);
    expect(record.output.state).toEqual({ recipe: { ...cooked.recipe, title: "Grandma's soup" } });
    const first = (await get(tether, `/api/runs/${(await tether.store.listRuns("edit-1"))[0]!.runId}/record`)) as RunRecordDocument;
    expect(first.output.state).toEqual(cooked);
    expect(first.input).not.toHaveProperty("stateEdit");
  });

  it("starts a fresh client's run from the stored state: its {} is no edit, and the opening snapshot puts it right", async () => {
    const tether = await app([...cook, { text: "Still soup." }]);
    await run(clientOf(tether, "fresh-1"), "cook");
    const fresh = clientOf(tether, "fresh-1");
    fresh.setMessages((await get(tether, "/api/threads/fresh-1")).messages);
    const events = await run(fresh, "and now?");
    expect(events[1]).toMatchObject({ type: "STATE_SNAPSHOT", snapshot: cooked });
    expect(fresh.state).toEqual(cooked);
    expect((await get(tether, "/api/threads/fresh-1")).state).toEqual(cooked);
  });
});

describe("shared state over an AG-UI 0.0.x client, with ?compat=ag-ui-0.0", () => {
  it("passes the 0.0.x schemas, and the client lands on the server's state", async () => {
    const tether = await appOn(cook);
    const agent = new HttpAgent0({
      url: "http://tether.test/api/agents/test/run?compat=ag-ui-0.0",
      headers: { "x-user": "kim" },
      threadId: "old-1",
      fetch: fetchInto(tether),
    });
    agent.addMessage({ id: "old-1-u1", role: "user", content: "cook" });
    const events: Array<{ type: string }> = [];
    await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) });

    for (const event of events) EventSchemas.parse(event);
    expect(events.filter((event) => event.type.startsWith("STATE_")).length).toBe(5);
    expect(agent.state).toEqual(cooked);
    expect((await get(tether, "/api/threads/old-1")).state).toEqual(cooked);
  });
});
