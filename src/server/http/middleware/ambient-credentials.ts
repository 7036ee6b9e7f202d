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
  /** Headers a proxy in front derives from the browser's sign-in (`ambientHeaders`): taken away with the cookie. */
  proxyHeaders: readonly string[] = [],
): Promise<boolean> {
  const headers = new Headers(request.headers);
  const authorization = headers.get("authorization");
  const browserScheme = authorization !== null && BROWSER_SENT_SCHEMES.test(authorization);
  const fromProxy = proxyHeaders.filter((name) => headers.has(name));
  if (!headers.has("cookie") && !browserScheme && fromProxy.length === 0) return false;
  headers.delete("cookie");
  if (browserScheme) headers.delete("authorization");
  for (const name of fromProxy) headers.delete(name);
  try {
    // No body: `authenticate` has no business reading it, and one that tries finds nobody, which refuses (fails closed).
    const again = await authenticate(new Request(request.url, { method: request.method, headers }));
    return again?.id !== user.id;
  } catch {
    // An authenticate that throws without the cookie needed it: refused as cookie-borne (403), not a server error.
    return true;
  }
}
