/**
 * The demo's web apps and the sources each bundle is built from. `npm run build`
 * builds them all; `npm start` builds those whose sources changed since.
 */
import { fileURLToPath } from "node:url";
import { webApp } from "./web-bundle/web-app.ts";

const repository = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** What every app bundles besides its own folder: the library's browser side and the installed packages. */
const LIBRARY_SOURCES = ["src/protocol", "src/client", "src/react", "package-lock.json", "tsconfig.json"].map(repository);

// The page also bundles the agent's browser tool specs and screen catalog, so a change there is a change of the page.
export const WORKDESK_WEB = webApp("workdesk", repository("apps/workdesk/web"), [...LIBRARY_SOURCES, repository("apps/workdesk/agent")]);

export const RECIPES_WEB = webApp("recipes", repository("apps/recipes/web"), [...LIBRARY_SOURCES, repository("apps/recipes/agent")]);

// The run-record viewer reads records only: it bundles the protocol's types and reading helpers, not the client.
export const RUNS_WEB = webApp("runs", repository("apps/runs/web"), [repository("src/protocol"), repository("package-lock.json"), repository("tsconfig.json")]);

// The dojo's pages bundle the browser tools their agents allow (apps/dojo/agent/browser-tools.ts) and the recipe's shape.
export const DOJO_WEB = webApp("dojo", repository("apps/dojo/web"), [...LIBRARY_SOURCES, repository("apps/dojo/agent")]);

export const WEB_APPS = [WORKDESK_WEB, RECIPES_WEB, RUNS_WEB, DOJO_WEB];
