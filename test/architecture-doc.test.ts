import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BEGIN, END, tracedCounts } from "../scripts/trace/render.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

/** Runs `npm run docs:trace -- --check`: the trace of the Workdesk request against docs/architecture.md. */
function checkTrace(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--conditions=tether-source", "--import=tsx", "scripts/trace-request.ts", "--check"],
      { cwd: ROOT, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe("docs/architecture.md", () => {
  it("lists the files the Workdesk request executes, as a trace of it finds them now", { timeout: 60_000 }, async () => {
    const { code, output } = await checkTrace();
    expect(output).toBe("");
    expect(code).toBe(0);
  });

  it("gives the walk-through above its generated section, and the README, the counts they state", () => {
    const document = read("docs/architecture.md");
    const counts = tracedCounts(document.slice(document.indexOf(BEGIN), document.indexOf(END)));
    expect(counts).toBeDefined();
    const stated = `${counts!.total} library and app files (${counts!.server} on the server, ${counts!.client} in the browser session`;
    const walkThrough = document.slice(0, document.indexOf(BEGIN));
    expect(walkThrough.replace(/\s+/g, " ")).toContain(stated);
    expect(read("README.md").replace(/\s+/g, " ")).toContain(stated);
  });
});
