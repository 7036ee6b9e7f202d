/**
 * Ids that travel in URLs, SSE frame ids and the store: 1 to 128 characters
 * of letters, digits and `_ . : -`. Anything else is refused at the edge.
 */
export const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

export function isValidId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}
