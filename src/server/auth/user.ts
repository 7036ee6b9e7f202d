/**
 * Who is asking. `authenticate` turns a request into one of these; every
 * permission check (screen lookup, record search, thread ownership) reads it.
 */
export interface TetherUser {
  userId: string;
  /** The organisation the user signed in under; data outside it is invisible. */
  orgScope: string;
  roles: string[];
  displayName?: string;
}

/**
 * Pluggable authentication: return the user, or undefined for missing or bad
 * credentials (the caller answers 401).
 */
export type Authenticate = (request: Request) => TetherUser | undefined | Promise<TetherUser | undefined>;
