import {
  TetherError,
  formatIssues,
  isStandardSchema,
  toJsonSchema,
  type ApprovalResponse,
  type ArgumentsOf,
  type JsonSchema,
  type SchemaIssue,
  type StandardJsonSchema,
  type ToolParameters,
} from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { RunState } from "../state/index.ts";

/** What a server tool knows about the call it is answering; `user` is the app's own user type. */
export interface ToolContext<User extends TetherUser = TetherUser> {
  user: User;
  threadId: string;
  runId: string;
  toolCallId: string;
  /** Aborted when the run is cancelled, or stopped (its server lost its hold on a shared store). */
  signal: AbortSignal;
  /**
   * The thread's shared state: read it, change it with JSON Patch (`patch`) or
   * whole (`set`). Each change is checked against the agent's state schema and
   * streamed to the page at once, before the tool's result.
   */
  state: RunState;
}

/**
 * A consequential tool waits for a person: the run ends with an interrupt
 * asking for approval, and the call executes (at most once) when an approval
 * comes back in the next run's `resume`.
 */
export interface ApprovalOptions<Args = any, User extends TetherUser = any> {
  /** Asks a person before each call: always, or when this says so for these arguments and this user. */
  needsApproval?: boolean | ((args: Args, user: User) => boolean);
  /** The sentence the person is asked to approve. */
  approvalMessage?(args: Args, user: User): string;
  /** More the person may answer (an edited value), as JSON Schema properties. */
  approvalFields?: { properties: Record<string, JsonSchema>; required?: string[] };
  /** The arguments to execute with, given the answer (apply an edited value here). Default: unchanged. */
  applyApproval?(args: Args, answer: ApprovalResponse): Args;
}

/**
 * A tool that runs on the server. Its result is what the model sees.
 *
 * The `any` defaults are for lists of tools (an agent's), where each tool has
 * arguments of its own and a hook taking them (`needsApproval`) makes a tool of
 * one type no tool of another; `defineTool` and `ToolExecutors` give each
 * tool's own code typed arguments.
 */
export interface ServerTool<Args = any, User extends TetherUser = any> extends ApprovalOptions<Args, User> {
  name: string;
  description: string;
  /** JSON Schema of the arguments; every call is checked against it before `execute`. */
  parameters: JsonSchema;
  execute(args: Args, context: ToolContext<User>): unknown;
  /** Whether the user may see (and so the model may call) this tool; everyone when absent. */
  visibleTo?(user: User): boolean;
  /** Parses arguments after the JSON Schema check (zod defaults and transforms); identity when absent. */
  parse?(args: unknown): Args;
  /**
   * Refuses a call this user may not make, by throwing a TetherError (such as
   * `forbidden`): checked before anyone is asked to approve it, and again
   * before it executes.
   */
  authorize?(args: Args, user: User): void;
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

type ParametersOf<P> = ArgumentsOf<P>;

export interface ToolDefinition<P extends ToolParameters, User extends TetherUser = TetherUser> extends ApprovalOptions<ParametersOf<P>, User> {
  name: string;
  description: string;
  parameters: P;
  execute(args: ParametersOf<P>, context: ToolContext<User>): unknown;
  visibleTo?(user: User): boolean;
  authorize?(args: ParametersOf<P>, user: User): void;
}

/**
 * Declares a server tool, its arguments written once: as a zod schema or a
 * JSON Schema (typed with `jsonSchema<Args>()`, or plain). `execute`,
 * `authorize` and the approval hooks get the arguments' type from it.
 *
 * @example
 * const searchWorkRequests = defineTool({
 *   name: "searchWorkRequests",
 *   description: "Finds work requests in the caller's organisation.",
 *   parameters: z.object({ query: z.string().optional() }),
 *   execute: ({ query }, { user }) => search(user.orgScope, query),
 * });
 */
export function defineTool<P extends ToolParameters, User extends TetherUser = TetherUser>(
  definition: ToolDefinition<P, User>,
): ServerTool<ParametersOf<P>, User> {
  assertToolName(definition.name);
  const schema = definition.parameters;
  return {
    ...definition,
    parameters: toJsonSchema(schema),
    // The schema library applies its defaults and transforms after the JSON Schema check.
    ...(isStandardSchema(schema) ? { parse: (args: unknown) => parseStandard(definition.name, schema, args) as ParametersOf<P> } : {}),
  };
}

export function assertToolName(name: string): void {
  if (!TOOL_NAME.test(name)) {
    throw new TetherError("config_invalid", `Tool name "${name}" must be 1-64 letters, digits, "_" or "-" (what model providers accept).`);
  }
}

/** Runs a Standard Schema's own validation (defaults, transforms); a schema that validates asynchronously cannot describe a tool. */
function parseStandard(toolName: string, schema: StandardJsonSchema, args: unknown): unknown {
  const result = schema["~standard"].validate(args) as { value?: unknown; issues?: readonly SchemaIssue[] } | Promise<unknown>;
  if (result instanceof Promise)
    throw new TetherError("config_invalid", `The parameters schema of tool "${toolName}" validates asynchronously; use a synchronous schema.`);
  if (result.issues)
    throw new TetherError("invalid_arguments", `The arguments for ${toolName} do not match its schema: ${formatIssues(result.issues, "(arguments)")}.`);
  return result.value;
}
