import type { Interrupt } from "@ag-ui/core";
import { useEffect, useRef, useState } from "react";
import type { ApprovalResponse } from "../protocol/index.ts";

export interface ApprovalCardProps {
  interrupt: Interrupt;
  onAnswer(answer: ApprovalResponse | "cancel"): void;
  /** Answering is not possible now (a run is going). */
  disabled?: boolean;
}

type Field = { name: string; label: string; value: string };

/**
 * One approval: what will happen, the arguments in readable form, Approve and
 * Reject, and a field for each extra value the tool lets the person change.
 * Past its expiry it can only be dismissed.
 */
export function ApprovalCard({ interrupt, onAnswer, disabled = false }: ApprovalCardProps) {
  const args = readArguments(interrupt);
  const [fields, setFields] = useState<Field[]>(() => extraFields(interrupt, args));
  const [comment, setComment] = useState("");
  const remaining = useRemaining(interrupt.expiresAt);
  const expired = remaining !== undefined && remaining <= 0;
  const answer = (approved: boolean) => () => {
    const extra = Object.fromEntries(fields.filter((field) => field.value.trim() !== "").map((field) => [field.name, field.value.trim()]));
    onAnswer({ approved, ...(comment.trim() ? { comment: comment.trim() } : {}), ...(approved ? extra : {}) });
  };
  // The card takes focus when it appears, so a keyboard or screen reader user is where the decision is;
  // not from someone in the middle of typing, whose next keys would land in the wrong place.
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!isTyping(document.activeElement)) card.current?.focus();
  }, []);
  return (
    <section ref={card} tabIndex={-1} className="tether-approval" role="group" aria-label="Approval needed" data-interrupt-id={interrupt.id}>
      <h3 className="tether-approval__title">Approval needed</h3>
      <p className="tether-approval__message">{interrupt.message ?? "The assistant asks for your approval."}</p>
      {Object.keys(args).length > 0 ? (
        <dl className="tether-approval__arguments">
          {Object.entries(args).map(([name, value]) => (
            <div key={name}>
              <dt>{humanize(name)}</dt>
              <dd>{typeof value === "string" ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {expired ? (
        <p className="tether-approval__expired">
          This approval expired; nothing will happen.{" "}
          <button type="button" disabled={disabled} onClick={() => onAnswer("cancel")}>
            Dismiss
          </button>
        </p>
      ) : (
        // Enter in a field submits the form: that must never approve, so approving is only ever a click.
        <form onSubmit={(event) => event.preventDefault()}>
          {fields.map((field, index) => (
            <label key={field.name} className="tether-approval__field">
              {field.label}
              <input
                value={field.value}
                onChange={(event) => setFields(fields.map((other, at) => (at === index ? { ...other, value: event.target.value } : other)))}
              />
            </label>
          ))}
          <label className="tether-approval__field">
            Comment (optional)
            <input value={comment} onChange={(event) => setComment(event.target.value)} />
          </label>
          <div className="tether-approval__actions">
            <button type="button" className="tether-approval__approve" disabled={disabled} onClick={answer(true)}>
              Approve
            </button>
            <button type="button" disabled={disabled} onClick={answer(false)}>
              Reject
            </button>
            {remaining !== undefined ? <span className="tether-approval__expiry">expires in {formatRemaining(remaining)}</span> : null}
          </div>
        </form>
      )}
    </section>
  );
}

function isTyping(element: Element | null): boolean {
  return (element instanceof HTMLTextAreaElement || element instanceof HTMLInputElement) && element.value !== "";
}

function readArguments(interrupt: Interrupt): Record<string, unknown> {
  const args = (interrupt.metadata as { tether?: { arguments?: unknown } } | undefined)?.tether?.arguments;
  return args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

/** String fields the response schema asks for beyond approved and comment, prefilled from the arguments. */
function extraFields(interrupt: Interrupt, args: Record<string, unknown>): Field[] {
  const properties = (interrupt.responseSchema as { properties?: Record<string, { type?: string; description?: string }> } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([name, schema]) => name !== "approved" && name !== "comment" && schema.type === "string")
    .map(([name]) => ({ name, label: humanize(name), value: typeof args[name] === "string" ? (args[name] as string) : "" }));
}

/** Milliseconds until `expiresAt`, ticking; undefined when it never expires. */
function useRemaining(expiresAt: string | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!expiresAt) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [expiresAt]);
  return expiresAt ? Date.parse(expiresAt) - now : undefined;
}

function formatRemaining(ms: number): string {
  // Counted down as a clock is: a 15-minute approval reads "15 min" when it appears, not 14.
  return ms > 60_000 ? `${Math.ceil(ms / 60_000)} min` : `${Math.max(0, Math.ceil(ms / 1000))} s`;
}

function humanize(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
