import { catchTetherError } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createArgumentChecker } from "../../protocol/index.ts";
import { compileAgentState } from "./agent-state.ts";
import { ANY_OBJECT_STATE } from "./state-schema.ts";
import { startingState } from "./starting-state.ts";

const declared = compileAgentState(
  "recipes",
  { schema: z.object({ title: z.string(), servings: z.number().int() }), initial: { title: "", servings: 1 } },
  createArgumentChecker(),
);
const stored = { title: "Soup", servings: 2 };
/** The recipe agent's start, on a thread that holds `stored` unless told it holds nothing. */
const recipes = (mode: "server" | "client", requested: unknown, thread: "stored" | "new thread" = "stored") =>
  startingState({ agentId: "recipes", mode, requested, stored: thread === "stored" ? stored : undefined, schema: declared.schema, declared });

describe("startingState, server history", () => {
  it.each([
    ["absent", undefined],
    ["null", null],
    ["{}", {}],
  ])("starts from the thread's stored state when the request's state is %s (not sent), storing nothing", (_, requested) => {
    expect(recipes("server", requested)).toEqual({ start: stored, announce: true });
  });

  it("checks the request's state as JSON will carry it: a number too large for JSON (null once stored) is refused, not stored", () => {
    const measured = compileAgentState("scales", { schema: z.object({ grams: z.number() }), initial: { grams: 0 } }, createArgumentChecker());
    const tooLarge = JSON.parse('{"grams":1e400}') as unknown; // Infinity, which JSON sends as null
    const start = () =>
      startingState({ agentId: "scales", mode: "server", requested: tooLarge, stored: undefined, schema: measured.schema, declared: measured });
    expect(catchTetherError(start).code).toBe("invalid_state");
  });

  it("starts a new thread from the agent's initial state, stored as the thread's", () => {
    expect(recipes("server", {}, "new thread")).toEqual({ start: declared.initial, store: declared.initial, announce: true });
  });

  it("starts from {} with nothing stored and nothing announced for an agent without state", () => {
    expect(startingState({ agentId: "plain", mode: "server", requested: {}, stored: undefined, schema: ANY_OBJECT_STATE })).toEqual({
      start: {},
      announce: false,
    });
  });

  it("starts from the stored state when the request's is deep-equal to it, storing nothing", () => {
    expect(recipes("server", { servings: 2, title: "Soup" })).toEqual({ start: { servings: 2, title: "Soup" }, announce: true });
  });

  it("takes a differing valid state as the person's edit: it wins, is stored, and the edit is the patch from the stored state", () => {
    expect(recipes("server", { title: "Leek soup", servings: 2 })).toEqual({
      start: { title: "Leek soup", servings: 2 },
      store: { title: "Leek soup", servings: 2 },
      edit: [{ op: "replace", path: "/title", value: "Leek soup" }],
      announce: true,
    });
  });

  it("measures a new thread's edit from the initial state", () => {
    expect(recipes("server", { title: "Pie", servings: 1 }, "new thread").edit).toEqual([{ op: "replace", path: "/title", value: "Pie" }]);
  });

  it("refuses an invalid state with invalid_state naming JSON Pointer paths", () => {
    const error = catchTetherError(() => recipes("server", { title: 3, servings: 2.5 }));
    expect(error.code).toBe("invalid_state");
    expect(error.message).toBe(
      `The request's state was refused for agent "recipes": it does not match the state schema: /title must be string; /servings must be integer.`,
    );
  });
});

describe("startingState, client history", () => {
  it("starts from the request's valid state, stored when it differs from the thread's copy, with no edit", () => {
    expect(recipes("client", { title: "Pie", servings: 3 })).toEqual({
      start: { title: "Pie", servings: 3 },
      store: { title: "Pie", servings: 3 },
      announce: true,
    });
    expect(recipes("client", stored)).toEqual({ start: stored, announce: true });
  });

  it("starts from the initial state when the request sends none, never from the stored copy", () => {
    expect(recipes("client", {}).start).toEqual(declared.initial);
    expect(recipes("client", undefined, "new thread").start).toEqual(declared.initial);
  });

  it("refuses an invalid state", () => {
    expect(catchTetherError(() => recipes("client", { title: "Pie" })).message).toMatch(/\(the state\) must have required property 'servings'/);
  });
});

describe("startingState, for every agent", () => {
  it.each([
    [[1, 2], "an array"],
    ["soup", "a string"],
  ])("refuses a state that is not a JSON object (%j)", (requested, kind) => {
    const error = catchTetherError(() => startingState({ agentId: "plain", mode: "server", requested, stored: undefined, schema: ANY_OBJECT_STATE }));
    expect(error).toMatchObject({ code: "invalid_state", message: expect.stringContaining(`must be a JSON object, not ${kind}`) });
  });
});
