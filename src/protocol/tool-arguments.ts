/** A JSON Schema object, as AG-UI tools carry it. */
export type JsonSchema = Record<string, unknown>;

declare const ARGUMENTS: unique symbol;

/** A JSON Schema that also says, to the type checker, what the arguments it accepts look like. */
export type TypedJsonSchema<Args> = JsonSchema & { readonly [ARGUMENTS]?: Args };

/**
 * A schema library's schema that can describe itself as JSON Schema: the
 * Standard Schema interface with its JSON Schema extension (zod 4, and any
 * other library that implements `~standard.jsonSchema`).
 */
export interface StandardJsonSchema<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => unknown;
    readonly jsonSchema: { readonly input: (options: { target: "draft-07" }) => Record<string, unknown> };
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/** A tool's parameters: a Standard Schema (zod), a typed JSON Schema, or a plain one. */
export type ToolParameters = StandardJsonSchema | JsonSchema;

/**
 * The arguments a tool's handler gets, from its parameters: the schema's
 * output type, the type a typed JSON Schema names, or a plain record.
 */
export type ArgumentsOf<Parameters> = Parameters extends { readonly "~standard": { readonly types?: { readonly output: infer Output } | undefined } }
  ? Output
  : Parameters extends { readonly [ARGUMENTS]?: infer Args }
    ? unknown extends Args
      ? Record<string, unknown>
      : Args
    : Record<string, unknown>;

/**
 * The arguments a browser tool's handler gets: the schema's *input* type.
 * The browser checks arguments against the JSON Schema only and never runs
 * the schema library, so defaults and transforms have not been applied.
 */
export type InputArgumentsOf<Parameters> = Parameters extends { readonly "~standard": { readonly types?: { readonly input: infer Input } | undefined } }
  ? Input
  : ArgumentsOf<Parameters>;

/**
 * Writes a tool's arguments once, as JSON Schema, and names their type beside
 * it: handlers then get typed arguments without a schema library.
 *
 * @example
 * const parameters = jsonSchema<{ screenId: string }>({ type: "object", properties: { screenId: { type: "string" } }, required: ["screenId"] });
 */
export function jsonSchema<Args>(schema: JsonSchema): TypedJsonSchema<Args> {
  return schema as TypedJsonSchema<Args>;
}

/** Whether parameters are a schema library's schema rather than JSON Schema itself. */
export function isStandardSchema(parameters: ToolParameters): parameters is StandardJsonSchema {
  return typeof (parameters as Partial<StandardJsonSchema>)["~standard"]?.jsonSchema?.input === "function";
}

/** The JSON Schema a model and a frontend see: the schema's own description of its input (draft 7, without `$schema`), or the schema itself. */
export function toJsonSchema(parameters: ToolParameters): JsonSchema {
  if (!isStandardSchema(parameters)) return parameters;
  const { $schema: _ignored, ...rest } = parameters["~standard"].jsonSchema.input({ target: "draft-07" });
  return rest;
}
