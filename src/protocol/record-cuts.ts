/**
 * Where a run record's cuts are, said apart from the values themselves.
 *
 * A record holds what clients, models and browsers sent, and any of them can
 * send an object shaped like a `Cut` (`{ cut: true, head, length, sha256 }`);
 * a reader that took every such object for a cut would show an attacker's
 * head and hide the real value. So the server lists the JSON Pointers
 * (RFC 6901) of the cuts it made in the document's `cuts`, and a reader takes
 * for a cut only an object found at one of those places: in memory, each is
 * marked with a symbol, which JSON can never carry.
 *
 * @module
 */

const CUT_MARK = Symbol.for("tether.record.cut");

/** Marks `cut` as one the server made (or a reader found at a listed place). */
export function markCut<T extends object>(cut: T): T {
  Object.defineProperty(cut, CUT_MARK, { value: true });
  return cut;
}

/** Whether `value` was marked as a cut: never true of anything parsed from JSON that no list named. */
export function isMarkedCut(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[CUT_MARK] === true;
}

/** The JSON Pointers of the marked cuts in `document`, in document order. Cost: one walk of the document. */
export function cutPointers(document: unknown): string[] {
  const pointers: string[] = [];
  const path: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value !== "object" || value === null) return;
    if (isMarkedCut(value)) {
      pointers.push(path.map((token) => `/${escapeToken(token)}`).join(""));
      return;
    }
    for (const [key, item] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
      path.push(String(key));
      walk(item);
      path.pop();
    }
  };
  walk(document);
  return pointers;
}

/** Marks the objects `pointers` name in `document` (a record as parsed), when they have a cut's shape. */
export function markCutsAt(document: unknown, pointers: readonly unknown[]): void {
  for (const pointer of pointers) {
    if (typeof pointer !== "string" || !pointer.startsWith("/")) continue;
    let value = document;
    for (const token of pointer.slice(1).split("/").map(unescapeToken)) {
      value = typeof value === "object" && value !== null && Object.hasOwn(value, token) ? (value as Record<string, unknown>)[token] : undefined;
    }
    const cut = value as { cut?: unknown; head?: unknown; length?: unknown } | undefined;
    if (typeof cut === "object" && cut !== null && cut.cut === true && typeof cut.head === "string" && typeof cut.length === "number") markCut(cut);
  }
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}
