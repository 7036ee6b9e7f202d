import { Ajv, type ValidateFunction } from "ajv";
import type { BrowserToolHandler } from "./tool-registry.ts";

export interface ArgumentChecker {
  /**
   * A browser call's arguments, parsed from the streamed text and checked
   * against the tool's schema: what the executor may be given, or why not.
   */
  parse(text: string, handler: BrowserToolHandler): { ok: true; value: unknown } | { ok: false; message: string };
  /** Compiles a tool's schema ahead of its first call: compiling takes tens of milliseconds. */
  compile(handler: BrowserToolHandler): void;
}

/**
 * One runner's schema checks. The compiled schemas live on the checker, not
 * at module scope, so they go when the session goes; each is compiled once.
 */
export function createArgumentChecker(): ArgumentChecker {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validators = new WeakMap<object, ValidateFunction>();
  const validatorFor = (handler: BrowserToolHandler): ValidateFunction => {
    let validate = validators.get(handler.spec.parameters);
    if (!validate) {
      validate = ajv.compile(handler.spec.parameters);
      validators.set(handler.spec.parameters, validate);
    }
    return validate;
  };
  return {
    parse(text, handler) {
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
    },
    compile(handler) {
      validatorFor(handler);
    },
  };
}
