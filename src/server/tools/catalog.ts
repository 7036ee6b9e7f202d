import { z } from "zod";
import { TetherError, formatIssues } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import { assertToolName, type ServerTool, type ToolContext } from "./define-tool.ts";

/** A server tool declared as data (a JSON file, a database row), its code bound by key. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** The key of the executor that runs this tool. */
  executor: string;
  /** Roles that see this tool; everyone when absent. */
  visibleToRoles?: string[];
}

/**
 * The code behind a declared tool. A declaration is data the compiler cannot
 * read, so the executor states its arguments' type: what the declaration's
 * JSON Schema admits, which every call is checked against before it runs.
 */
export type ToolExecutor<Args = unknown, User extends TetherUser = TetherUser> = (args: Args, context: ToolContext<User>) => unknown;

/**
 * Executors by key, each with the arguments' type it states. `never` as the
 * arguments' type admits an executor of any of them: which arguments reach it
 * is settled at run time, by its declaration's schema, not by this record.
 *
 * @example
 * const executors: ToolExecutors<AppUser> = {
 *   "screens.find": ({ query }: { query: string }, { user }) => findScreens(query, user.orgScope),
 * };
 */
export type ToolExecutors<User extends TetherUser = TetherUser> = Record<string, ToolExecutor<never, User>>;

const DeclarationSchema = z.object({
  name: z.string(),
  description: z.string().min(1),
  parameters: z.record(z.string(), z.unknown()),
  executor: z.string().min(1),
  visibleToRoles: z.array(z.string()).optional(),
});

/**
 * Binds declarations to executors. A declaration whose executor is missing
 * stops start-up with an error naming it: a tool the model is told about but
 * nobody can run would fail silently at the worst moment.
 */
export function loadToolCatalog<User extends TetherUser = TetherUser>(declarations: unknown, executors: ToolExecutors<User>): ServerTool<unknown, User>[] {
  const parsed = z.array(DeclarationSchema).safeParse(declarations);
  if (!parsed.success) {
    throw new TetherError("config_invalid", `The tool catalog is not a list of tool declarations: ${formatIssues(parsed.error.issues, "(catalog)")}.`);
  }
  // Own keys only: an executor key like "toString" must not find Object.prototype's.
  const missing = parsed.data.filter((declaration) => !Object.hasOwn(executors, declaration.executor) || typeof executors[declaration.executor] !== "function");
  if (missing.length > 0) {
    const names = missing.map((declaration) => `"${declaration.name}" (executor "${declaration.executor}")`).join(", ");
    throw new TetherError("tool_executor_missing", `No executor is registered for tool ${names}. Register it or remove the declaration.`, {
      details: { tools: missing.map((declaration) => ({ name: declaration.name, executor: declaration.executor })) },
    });
  }
  return parsed.data.map((declaration): ServerTool<unknown, User> => {
    assertToolName(declaration.name);
    const roles = declaration.visibleToRoles;
    return {
      name: declaration.name,
      description: declaration.description,
      parameters: declaration.parameters,
      // The one place the stated type is trusted: the tool set checks every call against `parameters` first.
      execute: executors[declaration.executor]! as ToolExecutor<unknown, User>,
      // Roles are the app's, read from its user when it has them: a user without roles sees no role-bound tool.
      ...(roles ? { visibleTo: (user: TetherUser & { roles?: readonly string[] }) => (user.roles ?? []).some((role) => roles.includes(role)) } : {}),
    };
  });
}
