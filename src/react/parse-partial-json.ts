/**
 * What a JSON text cut off mid-stream says so far, best effort: open strings,
 * objects and arrays are closed, and a value that cannot be closed (a key
 * without its value, `tru`, `1.`, a trailing comma) is left out. `undefined`
 * when nothing can be read (an empty text, or one that is not JSON at all).
 *
 * @example
 * parsePartialJson('{"location":"San Fr') // { location: "San Fr" }
 */
export function parsePartialJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // cut off, or not JSON: read what came so far
  }
  const closers: string[] = [];
  // Where the text could end if the containers then open were closed: after an opening bracket, after a closing one, before a comma.
  const cuts: Array<{ at: number; closers: string }> = [];
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{" || char === "[") {
      closers.push(char === "{" ? "}" : "]");
      cuts.push({ at: index + 1, closers: closers.join("") });
    } else if (char === "}" || char === "]") {
      closers.pop();
      cuts.push({ at: index + 1, closers: closers.join("") });
    } else if (char === ",") cuts.push({ at: index, closers: closers.join("") });
  }
  const close = (upTo: string) => [...upTo].reverse().join("");
  // The whole text first, an open string closed (a dangling escape dropped), so a value streaming in shows as it grows.
  const whole = inString ? `${escaped ? text.slice(0, -1) : text}"` : text;
  // If the text up to the last place a value ended does not read, nothing earlier will: the text is not JSON.
  const lastCuts = cuts.slice(-2).reverse();
  const candidates = [whole + close(closers.join("")), ...lastCuts.map((cut) => text.slice(0, cut.at) + close(cut.closers))];
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate);
    } catch {
      // a key without its value, a half-written literal or number: try the last place a value ended
    }
  }
  return undefined;
}
