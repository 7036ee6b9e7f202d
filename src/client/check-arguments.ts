import { Ajv, type ValidateFunction } from "ajv";
import type { BrowserToolHandler } from "./tool-registry.ts";

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new WeakMap<object, ValidateFunction>();

/**
 * A browser call's arguments, parsed from the streamed text and checked
 * against the tool's schema: what the executor may be given, or why not.
 */
export function parseArguments(text: string, handler: BrowserToolHandler): { ok: true; value: unknown } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return { ok: false, message: `The arguments for ${handler.spec.name} are not valid JSON; nothing was done.` };
  }
  const validate = validatorFor(handler);
  if (validate(value)) return { ok: true, value };
  const problems = (validate.errors ?? []).map((error) => `${error.instancePath || "(arguments)"} ${error.message}`).join("; ");
  return { ok: false, message: `The arguments for ${handler.spec.name} do not match its schema (${problems}); nothing was done.` };
}

/** The compiled schema of a tool; compiling takes tens of milliseconds, so it happens once. */
export function validatorFor(handler: BrowserToolHandler): ValidateFunction {
  let validate = validators.get(handler.spec.parameters);
  if (!validate) {
    validate = ajv.compile(handler.spec.parameters);
    validators.set(handler.spec.parameters, validate);
  }
  return validate;
}

