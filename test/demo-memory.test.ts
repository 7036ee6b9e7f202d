import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@tether-agent/tether/server";
import { describe, expect, it } from "vitest";
import { createDemo } from "../apps/serve.ts";

describe("the demo with TETHER_DATA_DIR=:memory:", () => {
  it("keeps everything in memory instead of writing a folder named :memory:", async () => {
    const cwd = process.cwd();
    const scratch = mkdtempSync(join(tmpdir(), "tether-memory-"));
    process.chdir(scratch);
    try {
      const demo = await createDemo({ env: { TETHER_DATA_DIR: ":memory:" }, secret: "s", logger: silentLogger, playbook: { chunkDelayMs: 0 } });
      const token = demo.identity.issueToken("kim");
      const response = await demo.app.request("/api/workdesk/requests/R-1042", { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      await demo.close();
      expect(existsSync(join(scratch, ":memory:"))).toBe(false);
    } finally {
      process.chdir(cwd);
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
