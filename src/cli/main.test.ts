import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "./main.ts";

describe("tether serve", () => {
  const folders: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("refuses a module that exports no app with config_invalid, naming the module, without a stack trace", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tether-serve-"));
    folders.push(folder);
    const modulePath = join(folder, "not-an-app.mjs");
    writeFileSync(modulePath, "export default { name: 'not an app' };\n");
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });

    expect(await main(["serve", modulePath])).toBe(1);
    expect(written.join("")).toBe(
      `tether: config_invalid: ${modulePath} must export (by default) an app with fetch(), an object with an app, or a function returning one.\n`,
    );
  });

  it("refuses a module path with nothing there with config_invalid, naming the path, without a stack trace", async () => {
    const modulePath = join(tmpdir(), `tether-no-such-module-${process.pid}.mjs`);
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });

    expect(await main(["serve", modulePath])).toBe(1);
    expect(written.join("")).toBe(`tether: config_invalid: There is no module at ${modulePath}: name the file that exports your app.\n`);
  });
});
