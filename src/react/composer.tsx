import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { sessionStatus } from "../client/index.ts";
import { isBusy } from "./is-busy.ts";
import { useSessionState } from "./use-session-state.ts";
import { useTetherSession } from "./use-tether-session.ts";

export interface ComposerProps {
  placeholder?: string;
}

/**
 * The message box of the nearest `TetherProvider`'s session (a textbox named
 * "Message the assistant"), Send, and Stop while a run this page started is
 * going. Enter sends (not while an input method is composing); Shift+Enter
 * breaks the line.
 */
export function Composer({ placeholder = "Ask the assistant…" }: ComposerProps) {
  const session = useTetherSession();
  const state = useSessionState(session);
  const status = sessionStatus(state);
  const busy = isBusy(status);
  const [draft, setDraft] = useState("");
  // A message not sent comes back to the box (unless another is being typed), and leaves it once it is sent again.
  const unsent = state.unsent;
  const restored = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (unsent) {
      restored.current = unsent.text;
      setDraft((current) => current || unsent.text);
    } else if (restored.current !== undefined) {
      const text = restored.current;
      restored.current = undefined;
      setDraft((current) => (current === text ? "" : current));
    }
  }, [unsent]);
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = draft.trim();
    if (!text || busy) return;
    setDraft("");
    void session.send(text).catch(() => setDraft((current) => current || text)); // refused before sending: the session shows why
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter that confirms an input method's composition (Korean, Japanese, Chinese) is not a send;
    // Safari reports it only as keyCode 229.
    if (event.nativeEvent.isComposing || event.keyCode === 229) return;
    if (event.key === "Enter" && !event.shiftKey) submit(event);
  };
  return (
    <form className="tether-composer" onSubmit={submit}>
      <textarea
        aria-label="Message the assistant"
        placeholder={state.interrupts.length > 0 ? "Or type to move on (the approval is cancelled)…" : placeholder}
        value={draft}
        rows={2}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {status === "running" ? (
        <button type="button" className="tether-composer__stop" onClick={() => void session.cancel()}>
          Stop
        </button>
      ) : null}
      <button type="submit" disabled={busy || draft.trim() === ""}>
        Send
      </button>
    </form>
  );
}
