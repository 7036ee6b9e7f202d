import { useEffect, useRef } from "react";
import { sessionStatus } from "../client/index.ts";
import { ApprovalCard } from "./approval-card.tsx";
import { isBusy } from "./is-busy.ts";
import { useSessionState } from "./use-session-state.ts";
import { useTetherSession } from "./use-tether-session.ts";

/** An `ApprovalCard` for each question the nearest `TetherProvider`'s session waits on; nothing when there is none. */
export function Approvals() {
  const session = useTetherSession();
  const state = useSessionState(session);
  const open = state.interrupts.length;
  // The panel the cards were in, kept after they are gone, to find its composer.
  const panel = useRef<Element | null>(null);
  const hadOpen = useRef(0);
  useEffect(() => {
    // Once the last approval is answered, focus goes back to where the person types, unless they moved it elsewhere.
    const lostFocus = document.activeElement === document.body || document.activeElement === null;
    if (hadOpen.current > 0 && open === 0 && lostFocus) {
      panel.current?.querySelector<HTMLTextAreaElement>("textarea[aria-label='Message the assistant']")?.focus();
    }
    hadOpen.current = open;
  }, [open]);
  // Always there, so assistive technology announces what is put into it: the question just asked.
  const announcement = (
    <p role="status" style={VISUALLY_HIDDEN}>
      {open > 0 ? `Approval needed: ${state.interrupts.at(-1)!.message ?? "the assistant asks for your approval."}` : ""}
    </p>
  );
  if (open === 0) return announcement;
  return (
    <div className="tether-panel__approvals" ref={(element) => void (element && (panel.current = element.closest(".tether-panel") ?? document.body))}>
      {announcement}
      {state.interrupts.map((interrupt) => (
        <ApprovalCard
          key={interrupt.id}
          interrupt={interrupt}
          disabled={isBusy(sessionStatus(state))}
          onAnswer={(answer) => void session.answer(interrupt.id, answer).catch(() => {})}
        />
      ))}
    </div>
  );
}

const VISUALLY_HIDDEN = { position: "absolute", width: 1, height: 1, overflow: "hidden", clipPath: "inset(50%)", whiteSpace: "nowrap" } as const;
