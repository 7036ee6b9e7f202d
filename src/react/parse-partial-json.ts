import untruncateJsonModule from "untruncate-json";

// untruncate-json ships CommonJS with an ES module beside it: bundlers hand the function, Node the module's exports.
const untruncateJson: (text: string) => string =
  typeof untruncateJsonModule === "function" ? untruncateJsonModule : (untruncateJsonModule as unknown as { default: (text: string) => string }).default;

/**
 * What a JSON text cut off mid-stream says so far, best effort: completed
 * with untruncate-json, the library `@ag-ui/client` reads partial tool
 * arguments with, so a card and the agent's own predictions read a prefix
 * alike. `undefined` when nothing can be read (an empty text, or one that is
 * not JSON at all).
 *
 * @example
 * parsePartialJson('{"location":"San Fr') // { location: "San Fr" }
 */
export function parsePartialJson(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // cut off, or not JSON: complete what came so far
  }
  try {
    return JSON.parse(untruncateJson(text));
  } catch {
    return undefined;
  }
}
