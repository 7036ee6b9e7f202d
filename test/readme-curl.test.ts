import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type DemoServer } from "./helpers/demo-server.ts";

const run = promisify(execFile);

/** The README's `sh` blocks that sign in with curl and start a run, as a newcomer pastes them. */
function readmeCurlBlocks(): string[] {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .filter((block) => block.includes("/api/demo/login") && block.includes("/run "));
}

describe("the README's curl examples", () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(() => server.close());

  it("are there to test: the Workdesk's and the Recipes' run", () => {
    expect(readmeCurlBlocks().map((block) => block.match(/api\/agents\/(\w+)\/run/)?.[1])).toEqual(["workdesk", "recipes"]);
  });

  it("each run to RUN_FINISHED when pasted twice in a row, not run_exists the second time", async () => {
    for (const block of readmeCurlBlocks()) {
      const script = block.replaceAll("localhost:8787", server.url.replace(/^http:\/\//, ""));
      for (const attempt of [1, 2]) {
        const { stdout } = await run("bash", ["-c", script], { timeout: 30_000 });
        expect(stdout, `attempt ${attempt} of\n${block}`).toContain('"type":"RUN_FINISHED"');
        expect(stdout).not.toContain("run_exists");
      }
    }
  });
});
