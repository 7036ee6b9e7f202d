/**
 * Who is asking: the app's user type and authenticate function, and the signed tokens of stateless
 * approvals. This folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export { readSignedToken, signToken } from "./signed-token.ts";
export type { Authenticate, TetherUser } from "./user.ts";
