import type { RecordPageLimits } from "./record-page.ts";
import type { ReportLimits } from "./report-limits.ts";

/** Options of the HTTP API's guards and limits, part of `TetherAppOptions`. */
export interface ApiOptions {
  /**
   * How much a browser may report about one run. Defaults: 64 KiB per
   * report, 200 reports and 1 MiB of reports per run (see `ReportLimits`).
   */
  reportLimits?: Partial<ReportLimits>;
  /**
   * Page size of `GET /runs/:runId/record`. Defaults: 1000 events and
   * reports, 1 MiB of them (see `RecordPageLimits`).
   */
  recordPage?: Partial<RecordPageLimits>;
  /**
   * Origins, besides the server's own, whose pages may send mutations
   * authenticated by cookie: a frontend on another origin, or the public
   * origin when a proxy in front rewrites `Host` (a dev server's proxy with
   * `changeOrigin: true`). Default: none. Requests `authenticate` accepted
   * without their cookie (Bearer, or an app that reads no cookie) are
   * accepted from any origin.
   */
  trustedOrigins?: readonly string[];
  /**
   * Request headers a proxy in front derives from the browser's own sign-in
   * (oauth2-proxy's `X-Forwarded-User`, `X-Auth-Request-Email`, Cloudflare
   * Access's `Cf-Access-Jwt-Assertion`): ambient like a cookie, so a
   * cross-site mutation that `authenticate` accepted by one of them is refused
   * as one accepted by cookie. Default: none.
   */
  ambientHeaders?: readonly string[];
}
