import { catchTetherError } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createArgumentChecker } from "../../protocol/index.ts";
import { compileAgentState } from "./agent-state.ts";

const compile = (option: Parameters<typeof compileAgentState>[1]) => compileAgentState("recipes", option, createArgumentChecker());

describe("compileAgentState", () => {
  it("compiles a zod schema to JSON Schema once, and checks by it alone (no default or transform of zod's)", () => {
    const state = compile({
      schema: z.object({
        title: z
          .string()
          .default("Untitled")
          .transform((title) => title.toUpperCase()),
      }),
    });
    expect(state.schema.check({})).toBeUndefined();
    expect(state.schema.check({ title: 1 })).toMatchObject({ reason: "does not match the state schema: /title must be string" });
  });

  it("takes a plain JSON Schema and an initial state that fits it", () => {
    const state = compile({ schema: { type: "object", properties: { n: { type: "integer" } } }, initial: { n: 1 } });
    expect(state.initial).toEqual({ n: 1 });
  });

  it("refuses an initial state the schema refuses, naming the agent and the path", () => {
    const error = catchTetherError(() => compile({ schema: z.object({ n: z.number() }), initial: { n: "one" } }));
    expect(error).toMatchObject({
      code: "config_invalid",
      message: 'Agent "recipes" has a state.initial that does not fit: it does not match the state schema: /n must be number.',
    });
  });

  it("refuses a schema that refuses {} when there is no initial state to start a new thread from", () => {
    expect(catchTetherError(() => compile({ schema: z.object({ n: z.number() }) })).message).toMatch(/has no state.initial, and its state schema refuses \{\}/);
  });

  it("refuses a schema that does not compile, or does not describe an object", () => {
    expect(catchTetherError(() => compile({ schema: { type: "object", properties: { n: { type: "integr" } } } })).message).toMatch(
      /Agent "recipes" has a state schema that is not a valid JSON Schema/,
    );
    expect(catchTetherError(() => compile({ schema: z.array(z.string()) })).message).toMatch(/a state is a JSON object/);
    expect(catchTetherError(() => compile({} as never)).message).toMatch(/without a schema/);
  });
});
