/**
 * The API's middleware: authentication, body limit, JSON content type, same-origin mutations. This
 * folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export { auth, type AuthEnv } from "./auth.ts";
export { bodyLimit } from "./body-limit.ts";
export { requireJson } from "./require-json.ts";
export { sameOrigin, type SameOriginOptions } from "./same-origin.ts";
