/**
 * `npm run build`: builds every web app's bundle, current or not, and stamps
 * it with the sources it was built from so that `npm start` can reuse it.
 */
import { buildWebApp } from "./web-bundle/build-web-app.ts";
import { fingerprintWebApp } from "./web-bundle/bundle-status.ts";
import { WEB_APPS } from "./web-apps.ts";

for (const app of WEB_APPS) {
  try {
    await buildWebApp(app, fingerprintWebApp(app));
  } catch (error) {
    console.error(
      `The ${app.name} web bundle did not build: ${error instanceof Error ? error.message : String(error)}\nFix that, then run "npm run build" again.`,
    );
    process.exit(1);
  }
}
