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

describe("tether's commands", () => {
  afterEach(() => vi.restoreAllMocks());
  const capture = () => {
    const written = { stdout: [] as string[], stderr: [] as string[] };
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => written.stdout.push(String(chunk)) > 0);
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => written.stderr.push(String(chunk)) > 0);
    return written;
  };

  it("refuse an option they do not take with exit code 2 and their usage, before doing anything", async () => {
    const written = capture();

    expect(await main(["serve", "app.mjs", "--prot", "9000"])).toBe(2);
    expect(await main(["tools", "check", "--url", "http://127.0.0.1:1", "--agnet", "a"])).toBe(2);

    const [serve, tools] = written.stderr;
    expect(serve).toMatch(/^tether serve: config_invalid: Unknown option --prot\. tether serve takes --port and --host\.\n\n {2}tether serve <module>/);
    expect(tools).toMatch(/^tether tools check: config_invalid: Unknown option --agnet\. tether tools check takes --url, --agent, /);
  });

  it("print their usage on --help, exit 0", async () => {
    const written = capture();

    expect(await main(["init", "--help"])).toBe(0);
    expect(await main(["record", "-h"])).toBe(0);

    expect(written.stdout[0]).toMatch(/^ {2}tether init <folder>/);
    expect(written.stdout[1]).toMatch(/^ {2}tether record <runId>/);
    expect(written.stderr).toEqual([]);
  });
});
