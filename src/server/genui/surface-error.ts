/**
 * What a `render_a2ui` call can get wrong, one code per class of mistake, so
 * the model's retry prompt and the activity's `errors` name the same thing.
 */
export const SURFACE_ERROR_CODES = [
  "schema",
  "unknown_component",
  "missing_child",
  "duplicate_id",
  "cycle",
  "root",
  "binding",
  "outside_catalog",
  "missing_property",
] as const;

export type SurfaceErrorCode = (typeof SURFACE_ERROR_CODES)[number];

/** One finding. `path` points into the call's arguments, e.g. `components[3].children[1]`. */
export interface SurfaceError {
  code: SurfaceErrorCode;
  path: string;
  message: string;
}

const MAX_QUOTED_LENGTH = 60;

/**
 * Quotes a value the model sent for an error message, shortened: a message
 * echoes the model's own words back to it, and a 10 kB id must not become a
 * 10 kB retry prompt.
 */
export function quote(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const short = text.length > MAX_QUOTED_LENGTH ? `${text.slice(0, MAX_QUOTED_LENGTH)}…` : text;
  return `'${short}'`;
}
