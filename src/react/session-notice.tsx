import { sessionStatus } from "../client/index.ts";
import { useSessionState } from "./use-session-state.ts";
import { useTetherSession } from "./use-tether-session.ts";

/**
 * What the person should know about the nearest `TetherProvider`'s session
 * besides the conversation: that it only follows a run, and the last error
 * (as an alert; a message not sent says why beside itself).
 */
export function SessionNotice() {
  const state = useSessionState(useTetherSession());
  const status = sessionStatus(state);
  return (
    <>
      {status === "observing" ? (
        <p className="tether-panel__note">Following a run started in another window or before a reload; nothing will run here.</p>
      ) : null}
      {state.error && !state.unsent ? (
        <p className="tether-panel__error" role="alert">
          {state.error.message}
        </p>
      ) : null}
    </>
  );
}
