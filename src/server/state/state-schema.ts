import type { ValidateFunction } from "ajv";
import { TetherError, type ArgumentChecker, type JsonSchema } from "../../protocol/index.ts";

/**
 * The most a state may weigh, in characters of JSON: it is written whole with
 * every step that changes it and shown to the model in every prompt.
 */
export const STATE_SIZE_LIMIT = 256 * 1024;

/** Why a value cannot be an agent's state, in words naming JSON Pointer paths, without a subject ("must be a JSON object, not an array"). */
export interface StateRefusal {
  reason: string;
  /** Ajv's errors, when the schema refused it. */
  details?: unknown;
}

/** An agent's state schema, compiled once: what a state must be. */
export interface StateSchema {
  /** The JSON Schema the state is checked against; absent for an agent that takes any JSON object. */
  jsonSchema?: JsonSchema;
  /** Why `value` cannot be the agent's state; undefined when it can. */
  check(value: unknown): StateRefusal | undefined;
}

/** The rule for every agent, and the whole schema of one that declares none: a JSON object, not too large. */
export const ANY_OBJECT_STATE: StateSchema = {
  check(value) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { reason: `must be a JSON object, not ${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`}` };
    }
    const size = JSON.stringify(value).length;
    if (size > STATE_SIZE_LIMIT) return { reason: `is ${size} characters of JSON, over the ${STATE_SIZE_LIMIT} a state may have` };
    return undefined;
  },
};

/**
 * Compiles an agent's state schema with its argument checker (JSON Schema
 * only, never the schema library's own validation: state goes back and forth
 * verbatim, and a default or transform applied here would make the server's
 * copy differ from the page's). Without a schema, any JSON object will do.
 */
export function compileStateSchema(jsonSchema: JsonSchema | undefined, checker: ArgumentChecker, agentId: string): StateSchema {
  if (jsonSchema === undefined) return ANY_OBJECT_STATE;
  if (jsonSchema.type !== undefined && jsonSchema.type !== "object") {
    throw new TetherError("config_invalid", `Agent "${agentId}" has a state schema of type ${JSON.stringify(jsonSchema.type)}: a state is a JSON object.`);
  }
  let validate: ValidateFunction;
  try {
    validate = checker.compile(jsonSchema, `state of agent "${agentId}"`);
  } catch (error) {
    const why = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
    throw new TetherError("config_invalid", `Agent "${agentId}" has a state schema that is not a valid JSON Schema: ${why}`, { cause: error });
  }
  return {
    jsonSchema,
    check(value) {
      const refusal = ANY_OBJECT_STATE.check(value);
      if (refusal || validate(value)) return refusal;
      const problems = (validate.errors ?? []).map((error) => `${error.instancePath || "(the state)"} ${error.message}`);
      return { reason: `does not match the state schema: ${problems.join("; ")}`, details: validate.errors };
    },
  };
}
