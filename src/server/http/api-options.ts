/** Options of the HTTP API's guards and limits, part of `TetherAppOptions`. */
export interface ApiOptions {
  /**
   * Origins, besides the server's own, whose pages may send mutations
   * authenticated by cookie: a frontend on another origin, or the public
   * origin when a proxy in front rewrites `Host`. Default: none. Requests
   * with `Authorization: Bearer` are accepted from any origin.
   */
  trustedOrigins?: readonly string[];
}
