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
 * credentials (the caller answers 401).
 */
export type Authenticate<User extends TetherUser = TetherUser> = (request: Request) => User | undefined | Promise<User | undefined>;
