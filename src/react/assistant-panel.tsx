import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import type { AgentSession } from "../client/index.ts";
import type { PanelMode } from "./panel-mode.ts";
import { ApprovalCard } from "./approval-card.tsx";
import { MessageList } from "./message-list.tsx";
import { useAgentSession } from "./use-agent-session.ts";

export interface AssistantPanelProps {
  session: AgentSession;
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
 * The assistant: streaming messages, the tools each answer used and how they
 * ended, a message box and a stop button. In `modal` mode it is a dialog.
 */
export function AssistantPanel({ session, title = "Assistant", subtitle, onModeChange, placeholder = "Ask the assistant…" }: AssistantPanelProps) {
  const state = useAgentSession(session);
  const [draft, setDraft] = useState("");
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = draft.trim();
    if (!text || state.running) return;
    setDraft("");
    void session.send(text).catch(() => {
      // The session shows the error in its state.
    });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey) submit(event);
  };
  const modal = state.mode === "modal";
  return (
    <section
      className={`tether-panel tether-panel--${state.mode}`}
      aria-label={title}
      {...(modal ? { role: "dialog", "aria-modal": true } : {})}
      data-mode={state.mode}
    >
      <header className="tether-panel__header">
        <div>
          <h2 className="tether-panel__title">{title}</h2>
          {subtitle ? <p className="tether-panel__subtitle">{subtitle}</p> : null}
        </div>
        {onModeChange ? (
          <div className="tether-panel__modes" role="radiogroup" aria-label="Panel mode">
            {MODES.map(({ mode, label }) => (
              <button key={mode} type="button" role="radio" aria-checked={state.mode === mode} onClick={() => onModeChange(mode)}>
                {label}
              </button>
            ))}
          </div>
        ) : null}
      </header>
      <MessageList messages={state.messages} activities={state.activities} running={state.running} />
      {state.interrupts.length > 0 ? (
        <div className="tether-panel__approvals">
          {state.interrupts.map((interrupt) => (
            <ApprovalCard
              key={interrupt.id}
              interrupt={interrupt}
              disabled={state.running}
              onAnswer={(answer) => void session.answer(interrupt.id, answer).catch(() => {})}
            />
          ))}
        </div>
      ) : null}
      {state.observing ? <p className="tether-panel__note">Following a run started in another window or before a reload; nothing will run here.</p> : null}
      {state.error ? (
        <p className="tether-panel__error" role="alert">
          {state.error.message}
        </p>
      ) : null}
      <form className="tether-composer" onSubmit={submit}>
        <textarea
          aria-label="Message the assistant"
          placeholder={state.interrupts.length > 0 ? "Or type to move on (the approval is cancelled)…" : placeholder}
          value={draft}
          rows={2}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {state.running && !state.observing ? (
          <button type="button" className="tether-composer__stop" onClick={() => void session.cancel()}>
            Stop
          </button>
        ) : null}
        <button type="submit" disabled={state.running || draft.trim() === ""}>
          Send
        </button>
      </form>
    </section>
  );
}
