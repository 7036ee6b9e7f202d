import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { TETHER_COMMAND } from "../helpers/tether-command.ts";

const run = promisify(execFile);

describe("the Workdesk build's tool manifest", () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("matches the server's allow-list, as `tether tools check` sees it", async () => {
    const { url } = server;
    const { stdout } = await run(process.execPath, [
      ...TETHER_COMMAND,
      "tools",
      "check",
      "--url",
      url,
      "--agent",
      "workdesk",
      "--manifest",
      "apps/workdesk/web/dist/tools.manifest.json",
      "--token",
      server.token("kim"),
    ]);
    expect(stdout).toContain("1 tool matches agent workdesk's allow-list");
    // And the page serves it too, for a check against a deployed frontend.
    const served = await (await fetch(`${url}/tools.manifest.json`)).json();
    expect(served.map((tool: { name: string }) => tool.name)).toEqual(["navigateToScreen"]);
  });
});
