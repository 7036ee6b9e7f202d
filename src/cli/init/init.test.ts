import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../main.ts";
import { createStarterApp } from "./init.ts";
import { readTetherPackage } from "./tether-package.ts";

const TAKES = "--tether takes a version, the path of the .tgz npm pack made or of a Tether checkout, or a URL or git spec npm installs.";

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

  it("gives the app this Tether's version as a ^ range, and a version, range or tag it is given as it is", async () => {
    await createStarterApp("one", { cwd: work });
    await createStarterApp("two", { cwd: work, tether: "0.2.0-beta.1" });
    await createStarterApp("three", { cwd: work, tether: "~0.2.0" });

    expect(manifest("one").dependencies["@tether-agent/tether"]).toBe(`^${readTetherPackage().version}`);
    expect(manifest("two").dependencies["@tether-agent/tether"]).toBe("0.2.0-beta.1");
    expect(manifest("three").dependencies["@tether-agent/tether"]).toBe("~0.2.0");
  });

  it("writes a tarball's path as a file: spec from the new app's folder, wherever init runs", async () => {
    writeFileSync(join(work, "tether-agent-tether-0.1.0.tgz"), "");

    const app = await createStarterApp("apps/my-app", { cwd: work, tether: "./tether-agent-tether-0.1.0.tgz" });

    expect(app.tether).toEqual({ spec: "file:../../tether-agent-tether-0.1.0.tgz", from: "file" });
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

  it("fills a folder that is there and empty, keeping the folder", async () => {
    mkdirSync(join(work, "empty"));

    await createStarterApp("empty", { cwd: work });

    expect(createdFiles(join(work, "empty"))).toEqual(STARTER_FILES);
    expect(readdirSync(work)).toEqual(["empty"]);
  });

  it("fills the folder it runs in with `tether init .`, and says to run npm install there", async () => {
    const here = join(work, "here");
    mkdirSync(here);
    vi.mocked(process.cwd).mockReturnValue(here);

    expect(await main(["init", "."])).toBe(0);

    expect(createdFiles(here)).toEqual(STARTER_FILES);
    expect(manifest("here").name).toBe("here");
    expect(stdout.join("")).toContain("Next:\n  npm install\n");
  });

  it("counts a folder holding only .git and editor folders as empty, and keeps them", async () => {
    for (const kept of [".git", ".idea", ".vscode"]) mkdirSync(join(work, "repo", kept), { recursive: true });
    writeFileSync(join(work, "repo/.DS_Store"), "");

    await createStarterApp("repo", { cwd: work });

    expect(createdFiles(join(work, "repo"))).toEqual([".DS_Store", ...STARTER_FILES]);
    for (const kept of [".git", ".idea", ".vscode"]) expect(statSync(join(work, "repo", kept)).isDirectory()).toBe(true);
  });

  it("gives a new folder the mode mkdir gives (0777 less the umask), not a temporary folder's 0700", async () => {
    mkdirSync(join(work, "made-by-mkdir"));

    await createStarterApp("my-app", { cwd: work });

    expect(statSync(join(work, "my-app")).mode & 0o777).toBe(statSync(join(work, "made-by-mkdir")).mode & 0o777);
    expect(statSync(join(work, "my-app/src")).mode & 0o777).toBe(statSync(join(work, "made-by-mkdir")).mode & 0o777);
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

    expect(stderr.join("")).toBe(`tether: config_invalid: There is no tarball at ${join(work, "tether-agent-tether-9.9.9.tgz")}: ${TAKES}\n`);
    expect(readdirSync(work)).toEqual([]);
  });

  it("passes a URL, git or npm: spec through to npm as it is", async () => {
    const specs = [
      "https://example.com/tether-agent-tether-0.1.0.tgz",
      "github:tether-agent/tether#v0.1.0",
      "git+https://github.com/tether-agent/tether.git",
      "npm:@tether-agent/tether@0.1.0",
    ];
    for (const [index, spec] of specs.entries()) {
      const app = await createStarterApp(`app-${index}`, { cwd: work, tether: spec });
      expect(manifest(`app-${index}`).dependencies["@tether-agent/tether"]).toBe(spec);
      expect(app.tether.from).toBe(spec.startsWith("npm:") ? "registry" : "elsewhere");
    }
  });

  it("takes a folder for --tether only when it holds Tether, and a file only when it is a .tgz", async () => {
    writeFileSync(join(work, "package.json"), JSON.stringify({ name: "someone-else" }));
    writeFileSync(join(work, "notes.txt"), "");
    mkdirSync(join(work, "checkout"));
    writeFileSync(join(work, "checkout/package.json"), JSON.stringify({ name: "@tether-agent/tether" }));

    expect(await main(["init", "one", "--tether", "."])).toBe(1);
    expect(await main(["init", "two", "--tether", "./notes.txt"])).toBe(1);
    expect(await main(["init", "three", "--tether", "./checkout"])).toBe(0);

    expect(stderr.join("")).toBe(
      [
        `tether: config_invalid: ${work} is a folder, but not Tether: its package.json does not name @tether-agent/tether. ${TAKES}`,
        `tether: config_invalid: ${join(work, "notes.txt")} is not a tarball (.tgz). ${TAKES}`,
        "",
      ].join("\n"),
    );
    expect(manifest("three").dependencies["@tether-agent/tether"]).toBe("file:../checkout");
    expect(readdirSync(work).sort()).toEqual(["checkout", "notes.txt", "package.json", "three"]);
  });

  it("says a symbolic link to nothing is one, and a file above the folder is a file", async () => {
    symlinkSync(join(work, "gone"), join(work, "link"));
    writeFileSync(join(work, "afile"), "");

    expect(await main(["init", "link"])).toBe(1);
    expect(await main(["init", "afile/sub"])).toBe(1);

    expect(stderr.join("")).toBe(
      [
        `tether: config_invalid: ${join(work, "link")} is a symbolic link to ${join(work, "gone")}, which is not there: make that folder, or name another one.`,
        `tether: config_invalid: ${join(work, "afile")} is a file, so ${join(work, "afile/sub")} cannot be made inside it: name a new folder, or an empty one.`,
        "",
      ].join("\n"),
    );
    expect(readdirSync(work).sort()).toEqual(["afile", "link"]);
  });

  it("takes back what it wrote on Ctrl-C, and exits 130", async () => {
    const once = vi.spyOn(process, "once");

    const running = main(["init", "my-app"]);
    const onInterrupt = once.mock.calls.find(([event]) => event === "SIGINT")![1] as (signal: NodeJS.Signals) => void;
    onInterrupt("SIGINT");

    expect(await running).toBe(130);
    expect(stderr.join("")).toBe("tether init: stopped (SIGINT), and took back what it had written.\n");
    expect(readdirSync(work)).toEqual([]);
    expect(process.listeners("SIGINT")).not.toContain(onInterrupt);
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
