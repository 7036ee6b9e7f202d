import { BasePlugin, type InvocationContext, type ReadonlyContext } from "@google/adk";
import { TetherError } from "../../../protocol/index.ts";
import type { TetherUser } from "../../auth/index.ts";
import type { RunState } from "../../state/index.ts";
import type { CapturedResults } from "./captured-results.ts";

/** Who a tool acts for and where, in a Tether run. */
export interface AdkToolScope<User extends TetherUser = TetherUser> {
  user: User;
  threadId: string;
  runId: string;
  /** Aborted when the run is cancelled or stopped. */
  signal: AbortSignal;
  /**
   * The thread's shared state as Tether holds it (a Tether tool run by ADK changes it here; an ADK
   * tool's own `context.state` changes reach it as ADK's state deltas).
   */
  state: RunState;
}

// A `temp:` key: ADK never stores those, so the scope lives for one invocation only.
const SCOPE_KEY = "temp:tether";

/**
 * The run's plugin: puts the user and the run in the invocation's state for the agent's tools
 * (`adkToolScope`), and notes a tool's error for the captured results.
 */
export class RunScopePlugin extends BasePlugin {
  constructor(
    private readonly scope: AdkToolScope,
    private readonly captured: CapturedResults,
  ) {
    super("tether-run-scope");
  }

  override async beforeRunCallback({ invocationContext }: { invocationContext: InvocationContext }) {
    invocationContext.session.state[SCOPE_KEY] = this.scope;
    return undefined;
  }

  override async onToolErrorCallback({ toolContext, error }: Parameters<BasePlugin["onToolErrorCallback"]>[0]) {
    this.captured.noteError(toolContext.functionCallId, error.message);
    return undefined;
  }
}

/**
 * In an ADK tool run by Tether: the signed-in user (with the app's own fields: roles, org), the
 * thread, the run and its cancellation. Tools check the user's rights with it, as Tether's own
 * tools do with their context. Throws `config_invalid` outside a Tether run.
 */
export function adkToolScope<User extends TetherUser = TetherUser>(context: ReadonlyContext): AdkToolScope<User> {
  const scope = context.state.get(SCOPE_KEY) as AdkToolScope<User> | undefined;
  if (!scope?.user)
    throw new TetherError("config_invalid", "adkToolScope was called outside a Tether run: only tools of an agent served with defineAdkAgent have one.");
  return scope;
}
