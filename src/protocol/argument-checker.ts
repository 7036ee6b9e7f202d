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
 * A checker with its own compiled schemas: it lives as long as its owner (an
 * agent, a browser session), never at module scope. A schema is compiled
 * once per content, not per object: one read back from the store is a new
 * object every time (an approval's response schema), and Ajv keeps every
 * schema it compiles, so a cache by object alone would grow with each answer.
 */
export function createArgumentChecker(): ArgumentChecker {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const byObject = new WeakMap<JsonSchema, ValidateFunction>();
  const byContent = new Map<string, ValidateFunction>();
  const compile = (schema: JsonSchema, owner: string): ValidateFunction => {
    let validate = byObject.get(schema);
    if (validate) return validate;
    // Without its $id: Ajv registers ids, and the same schema may be loaded twice (two agents, a reload).
    const { $id: _id, ...anonymous } = schema;
    const content = JSON.stringify(anonymous);
    validate = byContent.get(content);
    if (!validate) {
      try {
        validate = ajv.compile(anonymous);
      } catch (error) {
        throw new TetherError("config_invalid", `The parameters schema of ${owner} is not a valid JSON Schema: ${(error as Error).message}`, { cause: error });
      }
      byContent.set(content, validate);
    }
    byObject.set(schema, validate);
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
