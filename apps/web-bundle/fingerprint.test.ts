import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fingerprintSources } from "./fingerprint.ts";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "tether-fingerprint-"));
  mkdirSync(join(folder, "web/src"), { recursive: true });
  writeFileSync(join(folder, "web/src/main.tsx"), "render(<App />)");
  writeFileSync(join(folder, "web/index.html"), "<div id=root></div>");
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const fingerprint = (base: string) => fingerprintSources(base, [join(base, "web")]);

describe("fingerprintSources", () => {
  it("is the same for the same files in another checkout", () => {
    const other = join(folder, "elsewhere");
    cpSync(join(folder, "web"), join(other, "web"), { recursive: true });
    expect(fingerprint(other)).toBe(fingerprint(folder));
  });

  it("ignores build output and installed packages", () => {
    const before = fingerprint(folder);
    mkdirSync(join(folder, "web/dist"));
    writeFileSync(join(folder, "web/dist/index.html"), "<built>");
    mkdirSync(join(folder, "web/node_modules"));
    writeFileSync(join(folder, "web/node_modules/x.js"), "");
    expect(fingerprint(folder)).toBe(before);
  });

  it("tells a renamed file from the same content under its old name", () => {
    const before = fingerprint(folder);
    cpSync(join(folder, "web/src/main.tsx"), join(folder, "web/src/app.tsx"));
    rmSync(join(folder, "web/src/main.tsx"));
    expect(fingerprint(folder)).not.toBe(before);
  });

  it("counts a source that does not exist yet as no files", () => {
    expect(fingerprintSources(folder, [join(folder, "web"), join(folder, "web/public")])).toBe(fingerprint(folder));
  });
});
