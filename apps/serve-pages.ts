/**
 * The demo's web pages on its Hono app: each app's built bundle, served from
 * the folder its Vite build writes, which may not exist yet when the app is
 * set up (`npm start` builds the pages after it has checked its settings).
 */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { serveStatic, type ServeStaticOptions } from "@hono/node-server/serve-static";
import type { Hono, MiddlewareHandler } from "hono";

/**
 * Serves an app's built pages under `base`, and its index.html for every other
 * path there that is not the API, so the app's own routes
 * (/work-requests/R-1042, /recipes/cookbook) load on reload.
 */
export function servePages(app: Hono, folder: string, base = "") {
  const root = relative(process.cwd(), folder); // serveStatic takes a path relative to the working folder
  const index = join(folder, "index.html");
  const files = onceBuilt(folder, { root, rewriteRequestPath: (path: string) => path.slice(base.length) });
  // A missing asset is a 404, not the app's page: a stale tab asking for an old bundle must fail loudly.
  app.use(`${base}/assets/*`, files, async (c) => c.notFound());
  app.get(`${base}/tools.manifest.json`, files);
  const page: MiddlewareHandler = async (c, next) => {
    if (c.req.path === "/api" || c.req.path.startsWith("/api/")) return next();
    // Looked up per request: `npm start` builds the pages after the demo is set up, and `npm run build` may run beside a server.
    if (!existsSync(index))
      return c.text(`The web pages are not built: run "npm run build" (npm start builds them when they are missing or out of date).`, 503);
    return serveStatic({ root, path: "index.html" })(c, next);
  };
  if (base) app.get(base, (c) => c.redirect(`${base}/`));
  app.get(`${base}/*`, page);
}

/**
 * serveStatic for a folder a build may not have written yet, made at the first
 * request that finds the folder: made earlier, serveStatic says on the console
 * that its folder is missing, and `npm start` sets the demo up before it builds
 * the pages. Until the folder is there, every file in it is missing.
 */
function onceBuilt(folder: string, options: ServeStaticOptions): MiddlewareHandler {
  let serve: MiddlewareHandler | undefined;
  return async (c, next) => {
    if (!serve && existsSync(folder)) serve = serveStatic(options);
    return serve ? serve(c, next) : next();
  };
}
