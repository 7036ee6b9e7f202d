import type { SurfaceError } from "./surface-error.ts";

/** How many error lines the model is shown; the rest are counted, not listed. */
export const MAX_ERROR_LINES = 20;

/**
 * The tool result a failed attempt gives the model: a fixed first line it can
 * recognise, then one `[code] path: message` line per error.
 *
 * @example
 * formatSurfaceErrors([{ code: "missing_child", path: "components[1].child", message: "'t' is not the id of any component" }]);
 * // "A2UI validation failed\n[missing_child] components[1].child: 't' is not the id of any component"
 */
export function formatSurfaceErrors(errors: SurfaceError[]): string {
  const lines = errors.slice(0, MAX_ERROR_LINES).map((error) => `[${error.code}] ${error.path}: ${error.message}`);
  const hidden = errors.length - MAX_ERROR_LINES;
  if (hidden > 0) lines.push(`…and ${hidden} more`);
  return ["A2UI validation failed", ...lines].join("\n");
}
