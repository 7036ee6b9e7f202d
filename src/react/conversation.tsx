import { useCallback, useContext, useMemo, useSyncExternalStore } from "react";
import { sessionStatus } from "../client/index.ts";
import { isBusy } from "./is-busy.ts";
import { MessageList, type MessageMarks, type SurfaceHandlers } from "./message-list.tsx";
import type { ToolRendererError } from "./server-tool-call-item.tsx";
import { ToolRenderersContext } from "./tool-renderers.ts";
import { useSessionState } from "./use-session-state.ts";
import { useTetherSession } from "./use-tether-session.ts";

/**
 * The conversation of the nearest `TetherProvider`'s session, as a log
 * (role `log`, named "Conversation"): messages, and after each assistant
 * message the tools it called with how each one ended.
 */
export function Conversation() {
  const session = useTetherSession();
  const state = useSessionState(session);
  const renderers = useContext(ToolRenderersContext);
  // A tool that registers its renderer after the first paint still shows its calls its way.
  const version = renderers?.version ?? noVersion;
  useSyncExternalStore(renderers?.subscribe ?? noSubscription, version, version);
  const surfaces = useMemo(
    (): SurfaceHandlers => ({
      // Surfaces are disabled while the agent is busy; a refusal that slips through (a click racing the run's start) has nothing to show.
      onAction: (action) => void session.act(action).catch(() => {}),
      onError: ({ messageId, surfaceId, code, message }) =>
        void session.reportRendererError({ activityMessageId: messageId, ...(surfaceId ? { surfaceId } : {}), message, details: { code } }),
    }),
    [session],
  );
  // The session finds a report's run by call for surfaces only: this one goes to the thread's latest run, its details naming the call.
  const onRendererError = useCallback(
    ({ toolCallId, toolName, message }: ToolRendererError) =>
      void session.reportRendererError({ message, details: { code: "RENDERER_THREW", toolCallId, toolName } }).catch(() => {}),
    [session],
  );
  // Worked out from the session's state on each change: which answer Regenerate would replace, if any.
  const regenerable = session.regenerableAnswer();
  const marks = useMemo(
    (): MessageMarks => ({
      ...(state.unsent ? { unsent: state.unsent } : {}),
      stopped: new Set(state.stoppedMessageIds),
      onRetry: () => void session.retry().catch(() => {}),
      ...(regenerable ? { regenerable, onRegenerate: () => void session.regenerate().catch(() => {}) } : {}),
    }),
    [session, state.unsent, state.stoppedMessageIds, regenerable],
  );
  return (
    <MessageList
      messages={state.messages}
      activities={state.activities}
      running={isBusy(sessionStatus(state))}
      surfaces={surfaces}
      marks={marks}
      onRendererError={onRendererError}
      {...(renderers ? { renderers } : {})}
    />
  );
}

const noSubscription = () => () => {};
const noVersion = () => 0;
