#!/usr/bin/env node
// The `tether` command: the compiled copy in dist/ where the package is installed; in a checkout of its
// repository (which has tsconfig.build.json, never packed), the current source through tsx, so it is never stale.
import { existsSync } from "node:fs";

if (existsSync(new URL("../tsconfig.build.json", import.meta.url))) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/cli/tether.ts", import.meta.url).href);
} else {
  await import(new URL("../dist/cli/tether.js", import.meta.url).href);
}
