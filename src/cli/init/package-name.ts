import { TetherError } from "../../protocol/index.ts";

/** npm's rules for a new package's name, as far as a folder name can break them. */
const NPM_NAME = /^(?![._])[a-z0-9._~-]{1,214}$/;
const RESERVED = new Set(["node_modules", "favicon.ico"]);

/** Refuses a folder name npm would refuse as the app's package name (the app is named after its folder). */
export function checkPackageName(name: string): void {
  if (NPM_NAME.test(name) && !RESERVED.has(name)) return;
  throw new TetherError(
    "config_invalid",
    `"${name}" cannot name an npm package, and the app is named after its folder: use lowercase letters, digits and - . _ ~, not starting with . or _ (such as my-app).`,
  );
}
