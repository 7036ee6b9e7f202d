import type { BaseEvent } from "@ag-ui/core";
import type { ArgumentChecker } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { RunState } from "../state/index.ts";
import type { RunTool } from "./tool-set.ts";

/** Where tool calls are decided and acted on: the run's tools, its user, and how results go out. */
export interface ToolScope {
  tools: Map<string, RunTool>;
  /** Checks a call's arguments against its tool's schema. */
  checker: ArgumentChecker;
  user: TetherUser;
  threadId: string;
  runId: string;
  signal: AbortSignal;
  /** The run's shared state, for the server tools it runs. */
  state: RunState;
  emit(event: BaseEvent): void;
  newMessageId(): string;
}
