import { createHash } from "node:crypto";
import type { AssistantMessage, Message, ToolMessage } from "@ag-ui/core";
import { TetherError, type Trigger } from "../../../protocol/index.ts";
import type { RunStore } from "../../store/index.ts";
import { checkActionContext } from "./check-action-context.ts";
import { actionNamesOf, findComponent, findRenderedSurface } from "./rendered-surface.ts";
import { readUserAction, type UserAction } from "./user-action.ts";

/** The tool call a UI action is recorded as, under the middleware's name. */
export const LOG_A2UI_EVENT = "log_a2ui_event";

/**
 * A run request that carries a click on a surface: a new run, with the
 * messages that tell the model what was clicked and the run that produced the
 * surface; or the same click again, answered by the run it already started.
 */
export type PreparedUiAction =
  | { kind: "repeat"; runId: string }
  | {
      kind: "new";
      action: UserAction;
      /** The assistant `log_a2ui_event` call and its result, appended to the run's history. */
      messages: [AssistantMessage, ToolMessage];
      parentRunId?: string;
      /** The trigger the run is recorded with: `ui-action`, the action and the parent run. */
      trigger: Trigger;
    };

/**
 * Checks the UI action a run request carries (`forwardedProps.a2uiAction.userAction`)
 * against the thread, before anything is stored. Undefined when there is none.
 *
 * `history` is what the model would see: in server mode the stored thread (a
 * client cannot add assistant messages there, so every surface in it was
 * rendered by this server for this thread's owner); in client mode the
 * request's messages, which the client owns: the surface must be in the
 * history it sends, and a stateless server has nothing else to check against.
 */
export async function prepareUiAction(options: {
  /** The agent the run is for (only what is read here: server/agent imports genui, not the reverse). */
  agent: { id: string; generatedUi?: unknown };
  threadId: string;
  forwardedProps: unknown;
  trigger: Trigger | undefined;
  parentRunId: string | undefined;
  history: Message[];
  store: RunStore;
}): Promise<PreparedUiAction | undefined> {
  const { agent, threadId, trigger, history, store } = options;
  const action = readUserAction(options.forwardedProps);
  if (!action) {
    if (trigger?.kind === "ui-action") {
      throw new TetherError("ui_action_invalid", "A ui-action trigger needs the action in forwardedProps.a2uiAction.userAction.");
    }
    return undefined;
  }
  if (trigger && trigger.kind !== "ui-action") {
    throw new TetherError("invalid_trigger", `A run carrying a UI action has trigger kind "ui-action", not "${trigger.kind}".`);
  }
  if (!agent.generatedUi) {
    throw new TetherError("surface_unknown", `Agent "${agent.id}" shows no generated UI, so there is no surface ${action.surfaceId} to act on.`);
  }

  const ids = uiActionIds(threadId, action);
  // The same click delivered twice (a retry, a second window): the run it started is the answer.
  const earlier = await clickRun(threadId, ids, store);
  if (earlier) return { kind: "repeat", runId: earlier };
  if (history.some((message) => message.id === ids.callMessageId || message.id === ids.resultMessageId)) {
    throw new TetherError(
      "history_conflict",
      `The action ${action.name} on surface ${action.surfaceId} at ${action.timestamp} is already in this thread's history.`,
    );
  }

  const surface = findRenderedSurface(history, action.surfaceId);
  if (!surface) {
    throw new TetherError("surface_unknown", `Thread ${threadId} shows no surface ${action.surfaceId}: act only on surfaces this thread rendered.`, {
      details: { surfaceId: action.surfaceId },
    });
  }
  const component = findComponent(surface, action.sourceComponentId);
  if (!component) {
    throw new TetherError("ui_action_unknown", `Surface ${action.surfaceId} has no component ${action.sourceComponentId}.`, {
      details: { surfaceId: action.surfaceId, sourceComponentId: action.sourceComponentId },
    });
  }
  const names = actionNamesOf(component);
  if (!names.has(action.name)) {
    const carried = names.size > 0 ? `it carries ${[...names].slice(0, 20).join(", ")}` : "it carries none";
    throw new TetherError(
      "ui_action_unknown",
      `Component ${action.sourceComponentId} of surface ${action.surfaceId} has no action ${action.name} (${carried}).`,
      {
        details: { surfaceId: action.surfaceId, sourceComponentId: action.sourceComponentId, name: action.name },
      },
    );
  }

  checkActionContext(surface, component, action);

  // In client mode the producing run may be unknown here (another instance, before a restart): then there is no link to make.
  const parentRunId = options.parentRunId ?? (await store.getMessageRun(threadId, surface.resultMessageId));
  return {
    kind: "new",
    action,
    messages: uiActionMessages(ids, action),
    ...(parentRunId ? { parentRunId } : {}),
    trigger: { ...trigger, kind: "ui-action", ...(parentRunId ? { parentRunId } : {}), action },
  };
}

/**
 * What a request's click on a surface repeats: undefined when the request
 * carries no click; else the run that already took that click in (the same
 * click delivered twice: a retry, a second window), or no run for a click
 * not seen yet. Refuses a malformed action as `prepareUiAction` does.
 */
export async function repeatedUiActionRun(threadId: string, forwardedProps: unknown, store: RunStore): Promise<{ runId: string | undefined } | undefined> {
  const action = readUserAction(forwardedProps);
  return action && { runId: await clickRun(threadId, uiActionIds(threadId, action), store) };
}

/** The run that stored the click's messages; the ids name the click, so the same click finds the same run. */
function clickRun(threadId: string, ids: UiActionIds, store: RunStore): Promise<string | undefined> {
  return store.getMessageRun(threadId, ids.resultMessageId);
}

interface UiActionIds {
  toolCallId: string;
  callMessageId: string;
  resultMessageId: string;
}

/**
 * Ids derived from the thread and the click (surface, component, action name
 * and timestamp), so the same click delivered twice names the same messages.
 */
export function uiActionIds(threadId: string, action: UserAction): UiActionIds {
  const key = JSON.stringify([threadId, action.surfaceId, action.sourceComponentId, action.name, action.timestamp]);
  const toolCallId = `a2ui-action-${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
  return { toolCallId, callMessageId: `${toolCallId}-call`, resultMessageId: `${toolCallId}-result` };
}

/** What the model reads about a click: a `log_a2ui_event` call with the action as its arguments, and a result in words. */
export function uiActionMessages(ids: UiActionIds, action: UserAction): [AssistantMessage, ToolMessage] {
  return [
    {
      id: ids.callMessageId,
      role: "assistant",
      toolCalls: [{ id: ids.toolCallId, type: "function", function: { name: LOG_A2UI_EVENT, arguments: JSON.stringify(action) } }],
    },
    { id: ids.resultMessageId, role: "tool", toolCallId: ids.toolCallId, content: describeUiAction(action) },
  ];
}

export function describeUiAction(action: UserAction): string {
  return (
    `The person clicked "${action.name}" on surface "${action.surfaceId}" (component "${action.sourceComponentId}") ` +
    // The context is what the page sent: the button's bound values, but nothing the server checked.
    `with context ${JSON.stringify(action.context)} (as the page reported it).`
  );
}
