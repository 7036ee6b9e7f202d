/**
 * The demo's web apps and the sources each bundle is built from. `npm run build`
 * builds them all; `npm start` builds those whose sources changed since.
 */
import { fileURLToPath } from "node:url";
import { webApp } from "./web-bundle/web-app.ts";

const repository = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/** What every app bundles besides its own folder: the library's browser side and the installed packages. */
const LIBRARY_SOURCES = ["src/protocol", "src/client", "src/react", "package-lock.json", "tsconfig.json"].map(repository);

export const WORKDESK_WEB = webApp("workdesk", repository("apps/workdesk/web"), LIBRARY_SOURCES);

export const WEB_APPS = [WORKDESK_WEB];
