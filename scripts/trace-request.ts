/**
 * Traces the files one Workdesk request executes (server and browser session)
 * and writes them into docs/architecture.md, between its generated markers.
 * `--check` writes nothing and exits 1 when the document is out of date.
 *
 *   npm run docs:trace            # rewrite the generated section
 *   npm run docs:trace -- --check # is it still true?
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
// Coverage first: what it should see is imported after it starts.
import { startCoverage } from "./trace/coverage.ts";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const coverage = await startCoverage(root);

const { readFileSync, writeFileSync } = await import("node:fs");
const { BEGIN, END, renderTrace } = await import("./trace/render.ts");
const { traceRequest } = await import("./trace/trace.ts");

const path = resolve(root, "docs/architecture.md");
const document = readFileSync(path, "utf8");
const begin = document.indexOf(BEGIN);
const end = document.indexOf(END);
if (begin < 0 || end < begin) throw new Error(`${path} has no generated section: put ${BEGIN} and ${END} where it goes.`);

const section = renderTrace(await traceRequest(coverage));
const updated = document.slice(0, begin) + section + document.slice(end + END.length);
if (process.argv.includes("--check")) {
  if (updated !== document) {
    process.stderr.write(`docs/architecture.md is out of date with the trace; run npm run docs:trace. The trace now reads:\n\n${section}\n`);
    process.exitCode = 1;
  }
} else if (updated !== document) {
  writeFileSync(path, updated);
  process.stdout.write("docs/architecture.md: the generated section is rewritten.\n");
} else {
  process.stdout.write("docs/architecture.md is up to date.\n");
}
// The session's BroadcastChannel (how a browser's tabs share a thread) keeps Node running; a page has no such end.
process.exit();
