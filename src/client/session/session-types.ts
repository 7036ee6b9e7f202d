import type { HttpAgentFetchFn } from "@ag-ui/client";
import type { Context, Interrupt, Message } from "@ag-ui/core";
import type { AgentWelcome, ApprovalResponse } from "../../protocol/index.ts";
import type { DriftReport } from "../drift.ts";
import type { SessionError } from "../errors.ts";
import type { SharedState, StateConflict } from "../state/index.ts";
import type { BrowserToolHandler, ToolActivity, ToolRegistry } from "../tools/index.ts";

export interface AgentSessionOptions {
  /** Where the Tether API is mounted: `/api`, or `https://host/api`. Gives the run, events, capabilities, reports and thread routes. */
  api?: string;
  agentId?: string;
  /**
   * A plain AG-UI server's run URL, for a server without Tether's routes:
   * runs and browser tools work; resuming, restoring, drift checks and
   * reports need their Tether routes and are skipped.
   */
  runUrl?: string;
  /** Where a dropped stream resumes; Tether's thread events route by default. */
  eventsUrl?: string;
  /** Continue this thread; a new one when absent. */
  threadId?: string;
  headers?: Record<string, string>;
  fetch?: HttpAgentFetchFn;
  /** Where executed calls are remembered; `sessionStorage` by default. */
  storage?: Storage;
  /**
   * The mode the session starts in: a string the app defines, matched against
   * each tool's `modes`. `"side"` by default, the default of @tether-agent/tether/react's panel.
   */
  mode?: string;
  /**
   * What the page shows that the agent should know, read as each run starts
   * and sent as `RunAgentInput.context` (the recipe and step on screen, say).
   */
  context?: () => Context[];
  /** When this page's tools and the server's allow-list disagree: `warn` (default), `throw` (tests) or `ignore`. */
  drift?: "warn" | "throw" | "ignore";
  /**
   * Instrumentation: told, for each browser call run as its TOOL_CALL_END
   * arrives, when that END reached the session and when the tool's code was
   * called (`performance.now()` times). Calls run later (after an approval,
   * or again after a reload) are not reported.
   *
   * @example
   * onToolDispatch: (t) => performance.measure("tool-dispatch", { start: t.endArrivedAt, end: t.dispatchedAt })
   */
  onToolDispatch?(timing: ToolDispatchTiming): void;
}

/** How long a browser call waited between its TOOL_CALL_END arriving and its tool being called. */
export interface ToolDispatchTiming {
  toolCallId: string;
  toolName: string;
  runId: string;
  /** When the session read the TOOL_CALL_END off the wire. */
  endArrivedAt: number;
  /** When the tool's `execute` was called: after the mode check, the argument check and the journal write. */
  dispatchedAt: number;
}

export interface SessionState {
  threadId: string;
  /** The conversation as the reference client builds it from events. */
  messages: Message[];
  /** The tool timeline: every call and how it ended. */
  activities: ToolActivity[];
  /** A run is streaming, or being observed. */
  running: boolean;
  /** Following a run this page did not start (a second window, or after a reload): it never acts. */
  observing: boolean;
  runId?: string;
  error?: SessionError;
  /** The mode the app set (see `AgentSessionOptions.mode`). */
  mode: string;
  /** Questions the agent is waiting on (approvals); the thread goes on once each has an answer. */
  interrupts: Interrupt[];
  /** The last message the server never took (its run was refused, or never reached it): not sent, and `retry()` sends it. */
  unsent?: UnsentMessage;
  /** Messages of runs this page stopped: the answer so far, or the last message when no answer had begun. */
  stoppedMessageIds: string[];
  /**
   * The agent's shared state as the page shows it: the agent's, with the person's edits (`setState`) on it.
   * Read-only: change it with `setState`. A new object whenever it changes, and only then.
   */
  state: SharedState;
  /**
   * The person's edits that no longer applied once the agent changed the state under them (it removed what
   * they changed), oldest first: dropped from `state`, and told here. Cleared when the person starts the next run.
   */
  stateConflicts: StateConflict[];
}

/** A message that was not sent, and why, in the server's words or the browser's. */
export interface UnsentMessage {
  messageId: string;
  text: string;
  error: SessionError;
  /** Whether sending it again as it is may work (the network, a busy server), or it was refused for what it is. */
  retryable: boolean;
}

/** A click on a generated surface, in A2UI v0.9's `userAction` shape (what `@a2ui/web_core` dispatches). */
export interface SurfaceAction {
  name: string;
  surfaceId: string;
  sourceComponentId: string;
  /** The action's context with its data bindings resolved. */
  context: Record<string, unknown>;
  /** When it was clicked (ISO 8601). */
  timestamp: string;
}

/** What a page saw go wrong showing a surface. */
export interface RendererErrorReport {
  /** The surface's activity message (`a2ui-surface-<toolCallId>`): it names the run that produced the surface. */
  activityMessageId?: string;
  surfaceId?: string;
  message: string;
  details?: unknown;
}

export interface AgentSession {
  readonly threadId: string;
  readonly registry: ToolRegistry;
  getState(): SessionState;
  subscribe(listener: () => void): () => void;
  registerTool(handler: BrowserToolHandler): () => void;
  /** Sets the mode tools are checked against (their `modes`); the app defines the words. */
  setMode(mode: string): void;
  /**
   * The person changes the agent's shared state: the next state, or a function of the one shown (handed a
   * copy). It shows at once and reaches the agent with the next run. While a run streams, the person's
   * edit wins on the paths it touched and the agent's changes win elsewhere; an edit the agent's change
   * made impossible is dropped and listed in `state.stateConflicts`. Not a JSON object: `invalid_state`.
   */
  setState(update: SharedState | ((current: SharedState) => SharedState)): void;
  /**
   * Sends a user message and runs the agent, continuing after browser tools
   * until the agent is done. Open approvals are answered `cancelled`: the
   * user moved on.
   */
  send(text: string): Promise<void>;
  /** Sends the message the server never took (`state.unsent`) again; nothing when there is none. */
  retry(): Promise<void>;
  /**
   * Answers the last user message again (trigger `regenerate`): the answer
   * after it leaves the conversation at once (the server sets it aside, for
   * every tab) and a new one streams in. If the server does not take the run,
   * the old answer comes back and `state.error` says why. Refused while a run
   * goes or an approval waits.
   */
  regenerate(): Promise<void>;
  /** The answer Regenerate would replace (its message id), or undefined while it cannot: a run or a browser call goes, an approval waits, the answer ended with what was done. */
  regenerableAnswer(): string | undefined;
  /**
   * Answers one open interrupt: an approval (`{ approved, comment?, …fields }`)
   * or `"cancel"`. Once every open interrupt has an answer, they go back to the
   * agent in one run.
   */
  answer(interruptId: string, answer: ApprovalResponse | "cancel"): Promise<void>;
  /**
   * Sends a click on a generated surface (A2UI's `userAction`): a new run
   * with trigger `ui-action`, whose history tells the agent what was clicked
   * on which surface. Open approvals are answered `cancelled`, as with `send`.
   */
  act(action: SurfaceAction): Promise<void>;
  /**
   * Tells the server a surface could not be shown (the renderer refused it or
   * threw): a `renderer-error` report on the run that produced it. Never throws.
   */
  reportRendererError(report: RendererErrorReport): Promise<void>;
  /** Asks the server to stop the current run. */
  cancel(): Promise<void>;
  /**
   * Loads the thread, follows its active run without acting on it, then answers what this tab still owes.
   * Does nothing while this tab's own run is being sent or streams: the thread is live here already.
   */
  restore(): Promise<void>;
  checkDrift(): Promise<DriftReport>;
  /** The greeting and suggestions the agent offers before the first message (its capabilities' `custom.welcome`); undefined when none. */
  welcome(): Promise<AgentWelcome | undefined>;
}
