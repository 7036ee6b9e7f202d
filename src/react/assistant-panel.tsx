import { useContext, useEffect, useId, useRef, type ReactNode } from "react";
import type { AgentSession } from "../client/index.ts";
import { Approvals } from "./approvals.tsx";
import { Composer } from "./composer.tsx";
import { Conversation } from "./conversation.tsx";
import type { PanelMode } from "./panel-mode.ts";
import { SessionNotice } from "./session-notice.tsx";
import { TetherContext } from "./tether-context.ts";
import { TetherProvider } from "./tether-provider.tsx";
import { useSessionState } from "./use-session-state.ts";
import { useFocusTrap } from "./use-focus-trap.ts";
import { useMediaQuery } from "./use-media-query.ts";
import { Welcome } from "./welcome.tsx";
import { usePanelOpen } from "./use-panel-open.ts";

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
  /**
   * Whether the panel is open, held by the app (with `onOpenChange`). Giving
   * `open`, `defaultOpen` or `onOpenChange` makes the panel closable: a close
   * button, Escape over the app, a launcher button while it is closed, and
   * Ctrl+/ (⌘/ on a Mac) to open and close it. Without them it is always open.
   */
  open?: boolean;
  /** Whether a closable panel that holds its own state starts open. Default true. */
  defaultOpen?: boolean;
  onOpenChange?(open: boolean): void;
  /** The key that opens and closes a closable panel with Ctrl or ⌘. Default "/"; null for none. */
  shortcut?: string | null;
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
 * button. In `modal` and `fullscreen` mode it is a dialog that keeps focus
 * inside; given `open`, `defaultOpen` or `onOpenChange` it can be closed and
 * opened again (close button, Escape, backdrop, launcher, Ctrl+/), and below
 * 640 px wide its side mode is a sheet over the app.
 */
export function AssistantPanel({ session: given, ...props }: AssistantPanelProps) {
  const provided = useContext(TetherContext);
  const session = given ?? provided;
  // A programmer error (the component is placed outside its provider), not a user's: a plain Error, thrown while rendering.
  if (!session) throw new Error("AssistantPanel needs a session: pass `session`, or render it inside <TetherProvider session={…}>.");
  // Inside a provider of the same session, keep it: its browser tools' renderers live there.
  if (provided === session) return <PanelLayout session={session} {...props} />;
  return (
    <TetherProvider session={session}>
      <PanelLayout session={session} {...props} />
    </TetherProvider>
  );
}

/** Below this width a closable side panel is a sheet over the app (styles.css draws it). */
const SHEET_QUERY = "(max-width: 639.98px)";

function PanelLayout({
  session,
  title = "Assistant",
  subtitle,
  onModeChange,
  placeholder,
  open,
  defaultOpen,
  onOpenChange,
  shortcut,
}: AssistantPanelProps & { session: AgentSession }) {
  const state = useSessionState(session);
  const mode = state.mode;
  const { closable, isOpen, setOpen } = usePanelOpen({ open, defaultOpen, onOpenChange, shortcut });
  const id = useId();
  const panel = useRef<HTMLElement>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  // Full screen, window and the phone's sheet are dialogs over the app: focus stays inside while they are open.
  const sheet = useMediaQuery(SHEET_QUERY) && closable && mode === "side";
  const overlay = mode !== "side" || sheet;
  useFocusTrap(panel, isOpen && overlay);
  const wasOpen = useRef(isOpen);
  const hadFocus = useRef(false);
  useEffect(() => {
    if (wasOpen.current === isOpen) return;
    wasOpen.current = isOpen;
    // Opened: the person means to type. Closed from inside: focus goes to the launcher that opens it again, not to the
    // page's top; closed while they were elsewhere (typing in the app), focus stays where it is.
    if (isOpen && !panel.current?.contains(document.activeElement)) panel.current?.querySelector<HTMLElement>("textarea")?.focus();
    if (!isOpen && (hadFocus.current || document.activeElement === document.body)) launcher.current?.focus();
  }, [isOpen]);
  // Escape closes an overlay wherever focus is (even if it got out), but not the Escape that ends an input method's composition.
  useEffect(() => {
    if (!isOpen || !overlay || !closable) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape" || event.isComposing || event.keyCode === 229 || event.defaultPrevented) return;
      event.preventDefault();
      setOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [isOpen, overlay, closable, setOpen]);
  const attention = state.interrupts.length > 0 ? "approval waiting" : state.unsent ? "not sent" : state.error ? "something went wrong" : undefined;
  return (
    <>
      {mode === "modal" && isOpen ? <div className="tether-backdrop" aria-hidden="true" onClick={closable ? () => setOpen(false) : undefined} /> : null}
      <section
        ref={panel}
        id={id}
        className={`tether-panel tether-panel--${mode}${closable ? " tether-panel--closable" : ""}`}
        aria-label={title}
        {...(overlay ? { role: "dialog", "aria-modal": true } : {})}
        data-mode={mode}
        hidden={!isOpen}
        tabIndex={-1}
        onFocus={() => (hadFocus.current = true)}
        onBlur={(event) => (hadFocus.current = panel.current?.contains(event.relatedTarget as Node | null) ?? false)}
      >
        <PanelHeader title={title} subtitle={subtitle} mode={mode} onModeChange={onModeChange} onClose={closable ? () => setOpen(false) : undefined} />
        <Welcome />
        <Conversation />
        <Approvals />
        <SessionNotice />
        <Composer {...(placeholder !== undefined ? { placeholder } : {})} />
      </section>
      {closable ? (
        <button
          ref={launcher}
          type="button"
          className="tether-launcher"
          aria-controls={id}
          aria-expanded={isOpen}
          aria-keyshortcuts={shortcut === null ? undefined : `Control+${shortcut ?? "/"}`}
          hidden={isOpen}
          onClick={() => setOpen(true)}
        >
          {title}
          {/* What waits inside a closed panel: an approval, a message not sent, an error. */}
          {attention ? <span className="tether-launcher__attention"> · {attention}</span> : null}
        </button>
      ) : null}
    </>
  );
}

interface PanelHeaderProps {
  title: string;
  subtitle: ReactNode;
  mode: string;
  onModeChange: ((mode: PanelMode) => void) | undefined;
  onClose: (() => void) | undefined;
}

function PanelHeader({ title, subtitle, mode, onModeChange, onClose }: PanelHeaderProps) {
  return (
    <header className="tether-panel__header">
      <div>
        <h2 className="tether-panel__title">{title}</h2>
        {subtitle ? <p className="tether-panel__subtitle">{subtitle}</p> : null}
      </div>
      <div className="tether-panel__controls">
        {onModeChange ? (
          <div className="tether-panel__modes" role="radiogroup" aria-label="Panel mode">
            {MODES.map((option) => (
              <button key={option.mode} type="button" role="radio" aria-checked={mode === option.mode} onClick={() => onModeChange(option.mode)}>
                {option.label}
              </button>
            ))}
          </div>
        ) : null}
        {onClose ? (
          <button type="button" className="tether-panel__close" aria-label={`Close ${title}`} onClick={onClose}>
            ×
          </button>
        ) : null}
      </div>
    </header>
  );
}
