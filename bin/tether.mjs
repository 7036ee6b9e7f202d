#!/usr/bin/env node
// The `tether` command, compiled into dist/ when the package is packed.
import { existsSync } from "node:fs";

const compiled = new URL("../dist/cli/tether.js", import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write(
    "tether: this checkout has no compiled command. Run `npm run build:package`, or run the source with\n" +
      "  node --conditions=tether-source --import tsx src/cli/tether.ts\n",
  );
  process.exit(1);
}
await import(compiled.href);
