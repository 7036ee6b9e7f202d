import type { RunAgentInput } from "@ag-ui/core";
import { createAgentSession, type AgentSession } from "@tether-agent/tether/client";
import { createMemoryStorage } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { gate, runEvents, scriptedSse, type ScriptItem } from "../helpers/scripted-sse.ts";

const RECIPE = { recipe: { title: "Soup", servings: 2, ingredients: ["leek"] } };
type Recipe = typeof RECIPE;

/** One run's events as a server streams them. */
type Script = (input: RunAgentInput) => ScriptItem[];

const { started, finished, snapshot, delta } = runEvents;

/**
 * A scripted Tether server for one thread: each run request is answered by the next script (a 400 when the script
 * is a number, as a refused run is), the thread route by `thread`, and the events route by `followed` (the active
 * run another tab started), after which the thread has no active run and holds `thread.stateAfter`.
 */
function scriptedServer(threadId: string, scripts: Array<Script | number>) {
  const requests: RunAgentInput[] = [];
  const thread = { messages: [], state: undefined as unknown, stateAfter: undefined as unknown, activeRun: null as { runId: string } | null };
  let followed: ScriptItem[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const path = new URL(String(url)).pathname;
    if (path.endsWith("/run")) {
      const input = JSON.parse(String(init?.body)) as RunAgentInput;
      requests.push(input);
      const script = scripts.shift();
      if (typeof script !== "function") return Response.json({ error: { code: "invalid_input", message: "Refused." } }, { status: script ?? 500 });
      return scriptedSse(input.runId, script(input));
    }
    if (path.endsWith("/events")) {
      const runId = thread.activeRun?.runId ?? "none";
      const events = followed;
      followed = [];
      return scriptedSse(runId, events);
    }
    return Response.json({ ...thread, stateAfter: undefined, pendingToolCalls: [], pendingInterrupts: [], runs: [] });
  };
  const session = (): AgentSession =>
    createAgentSession({ api: "http://tether.test/api", agentId: "recipes", threadId, storage: createMemoryStorage(), drift: "ignore", fetch });
  /** The events route streams `events` (a run another tab started); as it ends, the thread has no active run and holds `stateAfter`. */
  const follow = (events: ScriptItem[]) => {
    const end = () => ((thread.activeRun = null), (thread.state = thread.stateAfter));
    followed = [...events.slice(0, -1), end, ...events.slice(-1)];
  };
  return { requests, thread, session, follow };
}

const recipeOf = (session: AgentSession) => session.getState().state as Recipe;

describe("a session's shared state", () => {
  it("keeps an edit made while the run streams over the run's deltas, reports the edit a delta undid, and sends what it shows with the next run", async () => {
    const first = gate();
    const second = gate();
    const server = scriptedServer("state-1", [
      (input) => [
        started(input),
        snapshot(RECIPE),
        first.opened,
        delta({ op: "replace", path: "/recipe/title", value: "Stew" }, { op: "add", path: "/recipe/ingredients/-", value: "potato" }),
        second.opened,
        delta({ op: "remove", path: "/recipe/servings" }),
        finished(input),
      ],
      (input) => [started(input), snapshot(input.state), finished(input)],
    ]);
    const session = server.session();
    const sending = session.send("make it a leek soup");
    await expect.poll(() => session.getState().state).toEqual(RECIPE);

    session.setState((current) => ({ recipe: { ...(current as Recipe).recipe, title: "Leek soup" } }));
    expect(recipeOf(session).recipe.title).toBe("Leek soup"); // shown at once, while the run goes on
    first.open();
    await expect.poll(() => recipeOf(session).recipe.ingredients).toEqual(["leek", "potato"]);
    expect(recipeOf(session).recipe.title).toBe("Leek soup"); // the agent's delta did not overwrite the person's edit

    session.setState((current) => ({ recipe: { ...(current as Recipe).recipe, servings: 4 } }));
    second.open();
    await sending;

    const shown = { recipe: { title: "Leek soup", ingredients: ["leek", "potato"] } };
    expect(session.getState().state).toEqual(shown);
    expect(session.getState().stateConflicts).toEqual([
      expect.objectContaining({
        path: "/recipe/servings",
        operation: { op: "replace", path: "/recipe/servings", value: 4 },
        delta: [{ op: "remove", path: "/recipe/servings" }],
      }),
    ]);
    expect(server.requests[0]!.state).toEqual({});

    await session.send("thanks");
    expect(server.requests[1]!.state).toEqual(shown);
    expect(session.getState()).toMatchObject({ state: shown, stateConflicts: [] });
  });

  it("writes an edit made while idle into the next request at once, and keeps it when the server refuses that run", async () => {
    const server = scriptedServer("state-2", [400, (input) => [started(input), snapshot(input.state), finished(input)]]);
    server.thread.state = { recipe: { title: "Soup", servings: 2 } };
    const session = server.session();
    await session.restore();
    session.setState((current) => ({ recipe: { ...(current as Recipe).recipe, title: "Leek soup" } }));
    await session.send("go");
    expect(server.requests[0]!.state).toEqual({ recipe: { title: "Leek soup", servings: 2 } });
    expect(session.getState().unsent).toBeDefined();

    server.thread.state = { recipe: { title: "Soup", servings: 3 } }; // another tab's run changed it meanwhile
    await session.restore();
    const shown = { recipe: { title: "Leek soup", servings: 3 } };
    expect(session.getState().state).toEqual(shown);
    await session.retry();
    expect(server.requests[1]!.state).toEqual(shown);
    expect(session.getState().state).toEqual(shown);
  });

  it("shows the stored thread's state after a reload, and a run another tab started as it streams, with an edit made meanwhile", async () => {
    const server = scriptedServer("state-3", [(input) => [started(input), snapshot(input.state), finished(input)]]);
    server.thread.state = RECIPE;
    const reloaded = server.session();
    await reloaded.restore();
    expect(reloaded.getState().state).toEqual(RECIPE);

    const elsewhere = { threadId: "state-3", runId: "run-elsewhere" };
    const midRun = gate();
    server.thread.activeRun = { runId: elsewhere.runId };
    server.thread.stateAfter = { recipe: { ...RECIPE.recipe, servings: 6 } };
    server.follow([started(elsewhere), snapshot(RECIPE), midRun.opened, delta({ op: "replace", path: "/recipe/servings", value: 6 }), finished(elsewhere)]);
    const following = reloaded.restore();
    await expect.poll(() => reloaded.getState().observing).toBe(true);
    reloaded.setState((current) => ({ recipe: { ...(current as Recipe).recipe, title: "Leek soup" } }));
    midRun.open();
    await following;

    const shown = { recipe: { ...RECIPE.recipe, title: "Leek soup", servings: 6 } };
    expect(reloaded.getState().state).toEqual(shown);
    await reloaded.send("and now?");
    expect(server.requests[0]!.state).toEqual(shown);
  });

  it("refuses a state that is not a JSON object, with a code", () => {
    const session = scriptedServer("state-4", []).session();
    expect(() => session.setState([] as unknown as Record<string, unknown>)).toThrow(expect.objectContaining({ code: "invalid_state" }));
    expect(session.getState().state).toEqual({});
  });
});
