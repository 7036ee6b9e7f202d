import { useContext, type ReactNode } from "react";
import type { AgentSession } from "../client/index.ts";
import { Approvals } from "./approvals.tsx";
import { Composer } from "./composer.tsx";
import { Conversation } from "./conversation.tsx";
import type { PanelMode } from "./panel-mode.ts";
import { SessionNotice } from "./session-notice.tsx";
import { TetherContext } from "./tether-context.ts";
import { TetherProvider } from "./tether-provider.tsx";
import { useAgentSession } from "./use-agent-session.ts";

export interface AssistantPanelProps {
  /** The session to show; the nearest `TetherProvider`'s when absent. */
  session?: AgentSession;
  /** Heading of the panel. */
  title?: string;
  /** A line under the title, such as which model answers. */
  subtitle?: ReactNode;
  /** Offers a switch between the panel modes; the app lays the panel out for the mode. */
  onModeChange?(mode: PanelMode): void;
  placeholder?: string;
}

const MODES: Array<{ mode: PanelMode; label: string }> = [
  { mode: "side", label: "Side panel" },
  { mode: "fullscreen", label: "Full screen" },
  { mode: "modal", label: "Window" },
];

/**
 * The assistant, in its default arrangement of the panel parts: the
 * `Conversation` (streaming messages, the tools each answer used and how they
 * ended), `Approvals`, a `SessionNotice` and the `Composer` with its stop
 * button. In `modal` mode it is a dialog.
 */
export function AssistantPanel({ session: given, ...props }: AssistantPanelProps) {
  const provided = useContext(TetherContext);
  const session = given ?? provided;
  if (!session) throw new Error("AssistantPanel needs a session: pass `session`, or render it inside <TetherProvider session={…}>.");
  // Inside a provider of the same session, keep it: its browser tools' renderers live there.
  if (provided === session) return <PanelLayout session={session} {...props} />;
  return (
    <TetherProvider session={session}>
      <PanelLayout session={session} {...props} />
    </TetherProvider>
  );
}

function PanelLayout({ session, title = "Assistant", subtitle, onModeChange, placeholder }: AssistantPanelProps & { session: AgentSession }) {
  const { mode } = useAgentSession(session);
  const modal = mode === "modal";
  return (
    <section className={`tether-panel tether-panel--${mode}`} aria-label={title} {...(modal ? { role: "dialog", "aria-modal": true } : {})} data-mode={mode}>
      <header className="tether-panel__header">
        <div>
          <h2 className="tether-panel__title">{title}</h2>
          {subtitle ? <p className="tether-panel__subtitle">{subtitle}</p> : null}
        </div>
        {onModeChange ? (
          <div className="tether-panel__modes" role="radiogroup" aria-label="Panel mode">
            {MODES.map((option) => (
              <button key={option.mode} type="button" role="radio" aria-checked={mode === option.mode} onClick={() => onModeChange(option.mode)}>
                {option.label}
              </button>
            ))}
          </div>
        ) : null}
      </header>
      <Conversation />
      <Approvals />
      <SessionNotice />
      <Composer {...(placeholder !== undefined ? { placeholder } : {})} />
    </section>
  );
}
