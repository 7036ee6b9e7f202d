import { sessionStatus } from "../client/index.ts";
import { ApprovalCard } from "./approval-card.tsx";
import { isBusy } from "./is-busy.ts";
import { useAgentSession } from "./use-agent-session.ts";
import { useTetherSession } from "./use-tether-session.ts";

/** An `ApprovalCard` for each question the nearest `TetherProvider`'s session waits on; nothing when there is none. */
export function Approvals() {
  const session = useTetherSession();
  const state = useAgentSession(session);
  if (state.interrupts.length === 0) return null;
  return (
    <div className="tether-panel__approvals">
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
