import { z } from "zod";
import { TetherError, type JsonSchema } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/user.ts";

/** What a server tool knows about the call it is answering. */
export interface ToolContext {
  user: TetherUser;
  threadId: string;
  runId: string;
  toolCallId: string;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
}

/** A tool that runs on the server. Its result is what the model sees. */
export interface ServerTool<Args = any> {
  name: string;
  description: string;
  /** JSON Schema of the arguments; every call is checked against it before `execute`. */
  parameters: JsonSchema;
  execute(args: Args, context: ToolContext): unknown;
  /** Whether the user may see (and so the model may call) this tool; everyone when absent. */
  visibleTo?(user: TetherUser): boolean;
  /** Parses arguments after the JSON Schema check (zod defaults and transforms); identity when absent. */
  parse?(args: unknown): Args;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

type ParametersOf<P> = P extends z.ZodType ? z.output<P> : Record<string, unknown>;

export interface ToolDefinition<P extends z.ZodType | JsonSchema> {
  name: string;
  description: string;
  parameters: P;
  execute(args: ParametersOf<P>, context: ToolContext): unknown;
  visibleTo?(user: TetherUser): boolean;
}

/**
 * Declares a server tool with zod or JSON Schema parameters.
 *
 * @example
 * const searchWorkRequests = defineTool({
 *   name: "searchWorkRequests",
 *   description: "Finds work requests in the caller's organisation.",
 *   parameters: z.object({ query: z.string().optional() }),
 *   execute: ({ query }, { user }) => search(user.orgScope, query),
 * });
 */
export function defineTool<P extends z.ZodType | JsonSchema>(definition: ToolDefinition<P>): ServerTool<ParametersOf<P>> {
  assertToolName(definition.name);
  const schema = definition.parameters;
  if (schema instanceof z.ZodType) {
    return {
      ...definition,
      parameters: zodToJsonSchema(schema),
      parse: (args) => schema.parse(args) as ParametersOf<P>,
    };
  }
  return { ...definition, parameters: schema as JsonSchema };
}

export function assertToolName(name: string): void {
  if (!TOOL_NAME.test(name)) {
    throw new TetherError("config_invalid", `Tool name "${name}" must be 1-64 letters, digits, "_" or "-" (what model providers accept).`);
  }
}

function zodToJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: "draft-7" }) as JsonSchema;
  return rest;
}
