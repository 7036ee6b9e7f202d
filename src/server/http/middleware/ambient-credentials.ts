import type { Authenticate, TetherUser } from "../../auth/index.ts";

/** HTTP authentication schemes a browser sends by itself once the user has signed in with them, like a cookie. */
const BROWSER_SENT_SCHEMES = /^(Basic|Digest|Negotiate|NTLM)\s/i;

/**
 * Whether the app's `authenticate` needed what the browser attaches by itself
 * (the Cookie header, HTTP authentication) to find this user: asked again
 * without them, it finds nobody or someone else. Such credentials ride along
 * even on a request a page of another site started; a Bearer header does not,
 * and another origin cannot add it without a CORS preflight. Asking again,
 * rather than trusting the app to say, covers every way an app may read a
 * cookie; it happens only for cross-site mutations that carry one.
 */
export async function authenticatedByAmbientCredentials<User extends TetherUser>(
  authenticate: Authenticate<User>,
  request: Request,
  user: User,
): Promise<boolean> {
  const headers = new Headers(request.headers);
  const authorization = headers.get("authorization");
  const ambient = headers.has("cookie") || (authorization !== null && BROWSER_SENT_SCHEMES.test(authorization));
  if (!ambient) return false;
  headers.delete("cookie");
  if (authorization !== null && BROWSER_SENT_SCHEMES.test(authorization)) headers.delete("authorization");
  // No body: `authenticate` has no business reading it, and one that tries finds nobody, which refuses (fails closed).
  const again = await authenticate(new Request(request.url, { method: request.method, headers }));
  return again?.id !== user.id;
}
