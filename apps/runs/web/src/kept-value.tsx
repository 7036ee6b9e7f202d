import { describeCut, keptText, type Kept } from "tether/protocol";

/** A value as the record keeps it: whole, or its head and what was cut (length and hash). */
export function KeptValue({ value, label }: { value: Kept<unknown>; label?: string }) {
  const { text, cut } = keptText(value, 2);
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
