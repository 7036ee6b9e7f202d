import { TetherError, toJsonSchema, type ArgumentChecker, type ToolParameters } from "../../protocol/index.ts";
import type { AgentState } from "../store/index.ts";
import { compileStateSchema, type StateSchema } from "./state-schema.ts";

/** `defineAgent({ state })`: the shared state the agent and the page both change. */
export interface AgentStateOption<S extends object = AgentState> {
  /** What the state must be: a zod 4 schema (any Standard Schema with JSON Schema) or JSON Schema, describing an object. */
  schema: ToolParameters;
  /** The state of a new thread. Default `{}`, which the schema must then accept. */
  initial?: S;
  /**
   * How the model sees the state, in the system prompt after the context and
   * rebuilt every step: by default as JSON under a heading; `false` leaves it
   * out (give the model a tool that reads it instead); a function writes the
   * whole block itself.
   */
  prompt?: false | ((state: S) => string);
}

/** An agent's declared state as the runtime holds it, compiled once. */
export interface AgentStateConfig {
  schema: StateSchema;
  initial?: AgentState;
  prompt?: false | ((state: AgentState) => string);
}

/** Compiles an agent's state option at definition: `config_invalid`, naming the agent, for a schema or initial state runs could not use. */
export function compileAgentState(agentId: string, option: AgentStateOption<any>, checker: ArgumentChecker): AgentStateConfig {
  if (typeof option !== "object" || option === null || option.schema === undefined) {
    throw new TetherError("config_invalid", `Agent "${agentId}" has a state option without a schema: give state: { schema, initial? }.`);
  }
  const schema = compileStateSchema(toJsonSchema(option.schema), checker, agentId);
  const refusal = schema.check(option.initial ?? {});
  if (refusal) {
    const what =
      option.initial === undefined ? "has no state.initial, and its state schema refuses {} (what a new thread would start from)" : "has a state.initial";
    throw new TetherError("config_invalid", `Agent "${agentId}" ${what} that does not fit: it ${refusal.reason}.`);
  }
  if (option.prompt !== undefined && option.prompt !== false && typeof option.prompt !== "function") {
    throw new TetherError("config_invalid", `Agent "${agentId}": state.prompt is false or a function of the state, not a ${typeof option.prompt}.`);
  }
  return {
    schema,
    ...(option.initial === undefined ? {} : { initial: option.initial as AgentState }),
    ...(option.prompt === undefined ? {} : { prompt: option.prompt }),
  };
}
