import { Ajv, type ValidateFunction } from "ajv";
import { TetherError, type JsonSchema } from "../../protocol/index.ts";

const ajv = new Ajv({ allErrors: true, strict: false });
// Allow-listed schemas are long-lived objects, so compiled validators are cached per schema object.
const validators = new WeakMap<JsonSchema, ValidateFunction>();

/** Compiles a schema once; a schema that does not compile is a configuration error. */
export function compileSchema(schema: JsonSchema, owner: string): ValidateFunction {
  const cached = validators.get(schema);
  if (cached) return cached;
  try {
    // Without its $id: Ajv registers ids globally, and the same schema may be loaded twice (two agents, a reload).
    const { $id: _id, ...anonymous } = schema;
    const validate = ajv.compile(anonymous);
    validators.set(schema, validate);
    return validate;
  } catch (error) {
    throw new TetherError("config_invalid", `The parameters schema of ${owner} is not a valid JSON Schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

export type ArgumentsCheck = { ok: true; value: unknown } | { ok: false; error: TetherError };

/**
 * Parses a tool call's streamed arguments and checks them against the tool's
 * schema. Nothing executes unless this says ok; the error is what the model sees.
 */
export function checkArguments(toolName: string, schema: JsonSchema, argumentsText: string): ArgumentsCheck {
  let value: unknown;
  try {
    // A call with no arguments streams nothing; that is an empty object, not malformed JSON.
    value = argumentsText.trim() === "" ? {} : JSON.parse(argumentsText);
  } catch {
    return { ok: false, error: new TetherError("invalid_arguments", `The arguments for ${toolName} are not valid JSON.`) };
  }
  const validate = compileSchema(schema, `tool "${toolName}"`);
  if (validate(value)) return { ok: true, value };
  const problems = (validate.errors ?? []).map((error) => `${error.instancePath || "(arguments)"} ${error.message}`);
  return {
    ok: false,
    error: new TetherError("invalid_arguments", `The arguments for ${toolName} do not match its schema: ${problems.join("; ")}.`, {
      details: validate.errors,
    }),
  };
}
