import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isTetherError } from "../../protocol/index.ts";
import { writeApp, type AppFile } from "./write-app.ts";

// The filesystem as a mount point or a locked parent makes it: each call may be refused first, as the kernel would.
const refuse = vi.hoisted(() => ({ current: undefined as undefined | ((call: string, path: string, to?: string) => NodeJS.ErrnoException | undefined) }));
vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  const guarded =
    <A extends unknown[], R>(call: string, run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const error = refuse.current?.(call, String(args[0]), call === "rename" ? String(args[1]) : undefined);
      if (error) throw error;
      return run(...args);
    };
  return {
    ...actual,
    mkdir: guarded("mkdir", actual.mkdir),
    mkdtemp: guarded("mkdtemp", actual.mkdtemp),
    rename: guarded("rename", actual.rename),
    writeFile: guarded("writeFile", actual.writeFile),
  };
});

const FILES: AppFile[] = [
  { path: "package.json", content: "{}\n" },
  { path: "src/App.tsx", content: "export {};\n" },
  { path: "README.md", content: "# App\n" },
];

function errno(code: string, call: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: refused, ${call} '${path}'`), { code, syscall: call, path });
}

describe("writeApp", () => {
  let work: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), "tether-write-app-"));
  });
  afterEach(() => {
    refuse.current = undefined;
    chmodSync(work, 0o755);
    rmSync(work, { recursive: true, force: true });
  });

  it("fills an empty folder that is a mount point, where a rename from its parent fails with EXDEV", async () => {
    const mount = join(work, "mounted");
    mkdirSync(mount);
    const inside = (path: string) => path === mount || path.startsWith(mount + sep);
    refuse.current = (call, from, to) => (call === "rename" && inside(from) !== inside(to!) ? errno("EXDEV", call, from) : undefined);

    await writeApp(mount, FILES);

    expect(readdirSync(mount).sort()).toEqual(["README.md", "package.json", "src"]);
    expect(readFileSync(join(mount, "src/App.tsx"), "utf8")).toBe("export {};\n");
    expect(readdirSync(work)).toEqual(["mounted"]);
  });

  it("fills an empty folder whose parent may not be written, making nothing beside it", async () => {
    const target = join(work, "mine");
    mkdirSync(target);
    refuse.current = (call, path, to) => (dirname(to ?? path) === work ? errno("EACCES", call, path) : undefined);
    // Whatever the write calls (these mocks see only node:fs/promises), the parent sees nothing come and go.
    const beside: string[] = [];
    const watcher = watch(work, (_, name) => beside.push(String(name)));

    await writeApp(target, FILES);
    await new Promise((resolve) => setTimeout(resolve, 50)); // inotify's events, delivered
    watcher.close();

    expect(readdirSync(target).sort()).toEqual(["README.md", "package.json", "src"]);
    expect(beside.filter((name) => name !== "mine")).toEqual([]);
  });

  it.skipIf(process.getuid?.() === 0)("fills an empty folder inside a folder it may not write (chmod 555; root writes anyway)", async () => {
    const target = join(work, "mine");
    mkdirSync(target);
    chmodSync(work, 0o555);

    await writeApp(target, FILES);

    expect(readdirSync(target).sort()).toEqual(["README.md", "package.json", "src"]);
  });

  it("says what the filesystem refused as config_invalid, and takes back what it wrote", async () => {
    refuse.current = (call, path) => (call === "writeFile" && path.endsWith("README.md") ? errno("ENOSPC", call, path) : undefined);

    const failure = await writeApp(join(work, "my-app"), FILES).catch((error: unknown) => error);

    expect(isTetherError(failure) && failure.code).toBe("config_invalid");
    expect((failure as Error).message).toMatch(
      new RegExp(`^Could not write the app into ${join(work, "my-app")} \\(ENOSPC: refused, writeFile '.*README\\.md'\\): check that you may write there`),
    );
    expect(readdirSync(work)).toEqual([]);
  });

  it("stops when its signal aborts, takes back a new folder and the folders made above it, and throws the reason", async () => {
    const stop = new AbortController();
    const files = [
      FILES[0]!,
      {
        path: "src/App.tsx",
        get content() {
          stop.abort("SIGINT");
          return "";
        },
      },
      FILES[2]!,
    ];

    await expect(writeApp(join(work, "apps/my-app"), files, stop.signal)).rejects.toBe("SIGINT");

    expect(readdirSync(work)).toEqual([]);
  });

  it("stops when its signal aborts, and leaves a folder that was there as empty as it was", async () => {
    const target = join(work, "empty");
    mkdirSync(target);
    const stop = new AbortController();
    const files = [
      FILES[0]!,
      {
        path: "src/App.tsx",
        get content() {
          stop.abort("SIGTERM");
          return "";
        },
      },
    ];

    await expect(writeApp(target, files, stop.signal)).rejects.toBe("SIGTERM");

    expect(readdirSync(target)).toEqual([]);
  });
});
