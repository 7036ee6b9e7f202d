// The `tether` command's entry point: bin/tether.mjs runs its compiled form.
import { main } from "./main.ts";

process.exitCode = await main(process.argv.slice(2));
