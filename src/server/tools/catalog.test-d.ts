/**
 * Type tests, checked by `tsc` in `npm test`: a catalog executor's arguments
 * and user are typed (no `any`), as the executor states them.
 */
import { expectTypeOf } from "vitest";
import type { TetherUser } from "../auth/index.ts";
import type { ServerTool } from "./define-tool.ts";
import { loadToolCatalog, type ToolExecutor, type ToolExecutors } from "./catalog.ts";

interface OrgUser extends TetherUser {
  orgScope: string;
}

// An executor states its arguments and reads the app's user.
const executors: ToolExecutors<OrgUser> = {
  "screens.find": ({ query }: { query: string }, { user }) => `${user.orgScope}:${query}`,
  "screens.count": (_args: Record<string, never>, { user }) => user.orgScope.length,
};
expectTypeOf(loadToolCatalog([], executors)).toEqualTypeOf<ServerTool<unknown, OrgUser>[]>();

// Unstated arguments are unknown, not any: using them unchecked does not compile.
const _unstated: ToolExecutor = (args) => {
  expectTypeOf(args).toEqualTypeOf<unknown>();
  // @ts-expect-error -- unknown arguments must be narrowed before use
  return args.query;
};

// A user the app's type does not know is not read as one.
const _plainUser: ToolExecutors = {
  // @ts-expect-error -- TetherUser has no orgScope
  "screens.find": (_args: { query: string }, { user }) => user.orgScope,
};
expectTypeOf(_unstated).toBeFunction();
expectTypeOf(_plainUser).toBeObject();
