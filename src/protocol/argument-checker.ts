import { Ajv, type ValidateFunction } from "ajv";
import { TetherError } from "./errors.ts";
import type { JsonSchema } from "./tool-arguments.ts";

export type ArgumentsCheck = { ok: true; value: unknown } | { ok: false; error: TetherError };

/** Checks tool-call arguments against their tools' JSON Schemas, the same way on the server and in the browser. */
export interface ArgumentChecker {
  /** Compiles a schema once (compiling takes milliseconds); one that does not compile is `config_invalid`, naming `owner`. */
  compile(schema: JsonSchema, owner: string): ValidateFunction;
  /**
   * Parses a call's streamed arguments and checks them against the tool's
   * schema: the value a handler may be given, or `invalid_arguments` saying
   * what is wrong. Nothing should execute unless this says ok.
   */
  check(toolName: string, schema: JsonSchema, argumentsText: string): ArgumentsCheck;
}

/**
 * A checker with its own compiled schemas, cached per schema object: it lives
 * as long as its owner (an agent, a browser session), never at module scope.
 */
export function createArgumentChecker(): ArgumentChecker {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validators = new WeakMap<JsonSchema, ValidateFunction>();
  const compile = (schema: JsonSchema, owner: string): ValidateFunction => {
    let validate = validators.get(schema);
    if (validate) return validate;
    try {
      // Without its $id: Ajv registers ids, and the same schema may be loaded twice (two agents, a reload).
      const { $id: _id, ...anonymous } = schema;
      validate = ajv.compile(anonymous);
    } catch (error) {
      throw new TetherError("config_invalid", `The parameters schema of ${owner} is not a valid JSON Schema: ${(error as Error).message}`, { cause: error });
    }
    validators.set(schema, validate);
    return validate;
  };
  return {
    compile,
    check(toolName, schema, argumentsText) {
      let value: unknown;
      try {
        // A call with no arguments streams nothing; that is an empty object, not malformed JSON.
        value = argumentsText.trim() === "" ? {} : JSON.parse(argumentsText);
      } catch {
        return { ok: false, error: new TetherError("invalid_arguments", `The arguments for ${toolName} are not valid JSON.`) };
      }
      const validate = compile(schema, `tool "${toolName}"`);
      if (validate(value)) return { ok: true, value };
      const problems = (validate.errors ?? []).map((error) => `${error.instancePath || "(arguments)"} ${error.message}`);
      return {
        ok: false,
        error: new TetherError("invalid_arguments", `The arguments for ${toolName} do not match its schema: ${problems.join("; ")}.`, {
          details: validate.errors,
        }),
      };
    },
  };
}
