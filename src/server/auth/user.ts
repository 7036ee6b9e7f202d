/**
 * Who is asking: whatever the app's `authenticate` knows about them. Tether
 * itself needs only `id` (threads, runs and approvals belong to it); the rest
 * is the app's own (an organisation, roles) and reaches its tools, tool
 * visibility and instructions as the app's own type.
 */
export interface TetherUser {
  id: string;
}

/**
 * Pluggable authentication: return the user, or undefined for missing or bad
 * credentials (the caller answers 401). Read credentials from the headers,
 * never the body. A mutation from a page of another origin that carries a
 * cookie is asked about once more, without its Cookie header (and any Basic
 * credentials): if that finds the same user, the cookie played no part and
 * the request is served; otherwise it is refused as cross-site (CSRF).
 */
export type Authenticate<User extends TetherUser = TetherUser> = (request: Request) => User | undefined | Promise<User | undefined>;
