import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../main.ts";
import { createStarterApp } from "./init.ts";
import { readTetherPackage } from "./tether-package.ts";

const STARTER_FILES = [
  ".gitignore",
  "index.html",
  "package.json",
  "playbook.ts",
  "README.md",
  "server.ts",
  "src/App.tsx",
  "src/main.tsx",
  "src/styles.css",
  "tasks.ts",
  "tools.ts",
  "tsconfig.json",
  "vite.config.ts",
];

describe("tether init", () => {
  let work: string;
  let stdout: string[];
  let stderr: string[];
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), "tether-init-"));
    stdout = [];
    stderr = [];
    vi.spyOn(process, "cwd").mockReturnValue(work);
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => stdout.push(String(chunk)) > 0);
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => stderr.push(String(chunk)) > 0);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(work, { recursive: true, force: true });
  });

  const manifest = (folder: string) => JSON.parse(readFileSync(join(work, folder, "package.json"), "utf8"));

  it("writes the template's files and a package.json named after the folder, and says what to run next", async () => {
    expect(await main(["init", "my-app"])).toBe(0);

    expect(createdFiles(join(work, "my-app"))).toEqual(STARTER_FILES);
    expect(manifest("my-app")).toMatchObject({ name: "my-app", private: true, type: "module" });
    expect(readFileSync(join(work, "my-app/.gitignore"), "utf8")).toContain("data");
    expect(stdout.join("")).toContain("\n  cd my-app\n  npm install\n  npm run dev      # then open http://127.0.0.1:5173\n");
    // Nothing beside the app: the staging folder became it.
    expect(readdirSync(work)).toEqual(["my-app"]);
  });

  it("gives the app this Tether's version as a ^ range, and a version or tag it is given as it is", () => {
    createStarterApp("one", { cwd: work });
    createStarterApp("two", { cwd: work, tether: "0.2.0-beta.1" });

    expect(manifest("one").dependencies["@tether-agent/tether"]).toBe(`^${readTetherPackage().version}`);
    expect(manifest("two").dependencies["@tether-agent/tether"]).toBe("0.2.0-beta.1");
  });

  it("writes a tarball's path as a file: spec from the new app's folder, wherever init runs", () => {
    writeFileSync(join(work, "tether-agent-tether-0.1.0.tgz"), "");

    const app = createStarterApp("apps/my-app", { cwd: work, tether: "./tether-agent-tether-0.1.0.tgz" });

    expect(app.tetherSpec).toBe("file:../../tether-agent-tether-0.1.0.tgz");
    expect(manifest("apps/my-app").dependencies["@tether-agent/tether"]).toBe("file:../../tether-agent-tether-0.1.0.tgz");
  });

  it("takes --tether=<path> as it takes --tether <path>", async () => {
    writeFileSync(join(work, "tether-agent-tether-0.1.0.tgz"), "");

    expect(await main(["init", "my-app", "--tether=./tether-agent-tether-0.1.0.tgz"])).toBe(0);

    expect(manifest("my-app").dependencies["@tether-agent/tether"]).toBe("file:../tether-agent-tether-0.1.0.tgz");
  });

  it("refuses a misspelled option with exit code 2, naming the options it takes, writing nothing", async () => {
    expect(await main(["init", "my-app", "--tehter", "./tether-agent-tether-0.1.0.tgz"])).toBe(2);

    expect(stderr.join("")).toMatch(/^tether init: config_invalid: Unknown option --tehter\. tether init takes --tether\.\n\n {2}tether init <folder>/);
    expect(readdirSync(work)).toEqual([]);
  });

  it("fills a folder that is there and empty, keeping the folder", () => {
    mkdirSync(join(work, "empty"));

    createStarterApp("empty", { cwd: work });

    expect(createdFiles(join(work, "empty"))).toEqual(STARTER_FILES);
    expect(readdirSync(work)).toEqual(["empty"]);
  });

  it("refuses without a folder, with config_invalid and exit code 1", async () => {
    expect(await main(["init"])).toBe(1);
    expect(stderr.join("")).toMatch(/^tether: config_invalid: Name the folder to write the app into: tether init my-app\./);
  });

  it("refuses a folder that is not empty, and leaves it as it was", async () => {
    mkdirSync(join(work, "taken"));
    writeFileSync(join(work, "taken/notes.txt"), "mine");

    expect(await main(["init", "taken"])).toBe(1);

    expect(stderr.join("")).toBe(`tether: config_invalid: ${join(work, "taken")} is not empty (notes.txt): name a new folder, or an empty one.\n`);
    expect(readdirSync(join(work, "taken"))).toEqual(["notes.txt"]);
    expect(readdirSync(work)).toEqual(["taken"]);
  });

  it("refuses a folder name npm would refuse as a package name, writing nothing", async () => {
    for (const folder of ["My App", "_private", ".hidden", "node_modules"]) {
      stderr.length = 0;
      expect(await main(["init", folder])).toBe(1);
      expect(stderr.join("")).toContain(`tether: config_invalid: "${folder}" cannot name an npm package`);
    }
    expect(readdirSync(work)).toEqual([]);
  });

  it("refuses a tarball that is not there, naming the path, writing nothing", async () => {
    expect(await main(["init", "my-app", "--tether", "./tether-agent-tether-9.9.9.tgz"])).toBe(1);

    expect(stderr.join("")).toBe(
      `tether: config_invalid: There is no tarball at ${join(work, "tether-agent-tether-9.9.9.tgz")}: --tether takes the path of the .tgz npm pack made, or a version.\n`,
    );
    expect(readdirSync(work)).toEqual([]);
  });

  it("refuses --tether without a value, writing nothing", async () => {
    expect(await main(["init", "my-app", "--tether"])).toBe(1);

    expect(stderr.join("")).toContain("tether: config_invalid: --tether needs a value");
    expect(existsSync(join(work, "my-app"))).toBe(false);
  });
});

/** Every file under a folder, as paths from it with /, sorted. */
function createdFiles(folder: string, prefix = ""): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? createdFiles(join(folder, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]))
    .sort((a, b) => a.localeCompare(b, "en"));
}
