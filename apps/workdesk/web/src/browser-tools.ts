import { navigateToScreen } from "../../agent/navigate-to-screen.ts";

/** Every browser tool this frontend executes; the build writes them to tools.manifest.json. */
export const workdeskBrowserTools = [navigateToScreen];
