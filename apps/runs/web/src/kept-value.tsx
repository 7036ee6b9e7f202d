import { describeCut, keptText, type Kept } from "@tether-agent/tether/protocol";

/** A value as the record keeps it: whole, or its head and what was cut (length and hash). */
export function KeptValue({ value, label }: { value: Kept<unknown>; label?: string }) {
  const { text: kept, cut } = keptText(value, 2);
  const text = cut ? kept : pretty(kept);
  return (
    <div className="kept">
      <pre aria-label={label} tabIndex={0}>
        {text || "—"}
        {cut ? "…" : null}
      </pre>
      {cut ? (
        <p className="kept__cut" title={cut.sha256}>
          {describeCut(cut)}
        </p>
      ) : null}
    </div>
  );
}

/** JSON kept as a string (tool arguments, a tool message's content) laid out like any other value; anything else as it is. */
function pretty(text: string): string {
  if (!/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
