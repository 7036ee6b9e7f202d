import { z } from "zod";

/** A JSON Schema object, as AG-UI tools carry it. */
export type JsonSchema = Record<string, unknown>;

declare const ARGUMENTS: unique symbol;

/** A JSON Schema that also says, to the type checker, what the arguments it accepts look like. */
export type TypedJsonSchema<Args> = JsonSchema & { readonly [ARGUMENTS]?: Args };

/** A tool's parameters: a zod schema, a typed JSON Schema, or a plain one. */
export type ToolParameters = z.ZodType | JsonSchema;

/**
 * The arguments a tool's handler gets, from its parameters: zod's output
 * type, the type a typed JSON Schema names, or a plain record.
 */
export type ArgumentsOf<Parameters> = Parameters extends z.ZodType
  ? z.output<Parameters>
  : Parameters extends { readonly [ARGUMENTS]?: infer Args }
    ? unknown extends Args
      ? Record<string, unknown>
      : Args
    : Record<string, unknown>;

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

/** The JSON Schema a model and a frontend see: zod's, converted (draft 7, without `$schema`), or the schema itself. */
export function toJsonSchema(parameters: ToolParameters): JsonSchema {
  if (!(parameters instanceof z.ZodType)) return parameters;
  const { $schema: _ignored, ...rest } = z.toJSONSchema(parameters, { target: "draft-7" }) as JsonSchema;
  return rest;
}
