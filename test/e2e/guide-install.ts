import { readFileSync } from "node:fs";

/**
 * The install commands a reader copies from docs/guide.md (its Install block
 * and the TypeScript line of "Run a TypeScript server"), as argument lists
 * for npm with the tarball's path in place of `./tether-agent-tether-*.tgz`.
 * Nothing is pinned: npm resolves each package as a reader's install would
 * today, so a new major of any of them shows up in CI the day it appears.
 */
export interface GuideInstall {
  sqliteServer: string[];
  pgServer: string[];
  reactApp: string[];
  typescript: string[];
}

const GUIDE = new URL("../../docs/guide.md", import.meta.url);
const README = new URL("../../README.md", import.meta.url);
const TARBALL = /^\.\/tether-agent-tether-[\d.]+\.tgz$/;

/** Every `npm install …` line of a Markdown file's shell blocks, keyed by its comment (or by the line when it has none). */
function installLines(markdown: string): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const line of block[1]!.split("\n")) {
      const found = /^npm install (?!&&)(.+?)\s*(?:#\s*(.*))?$/.exec(line.trim());
      if (found) lines.set(found[2] ?? found[1]!, found[1]!.split(/\s+/));
    }
  return lines;
}

function take(lines: Map<string, string[]>, key: string, tarball: string): string[] {
  const args = lines.get(key);
  if (!args) throw new Error(`docs/guide.md has no install line "${key}" any more: update test/e2e/guide-install.ts with it`);
  return ["install", ...args.map((arg) => (TARBALL.test(arg) ? tarball : arg)), "--no-audit", "--no-fund"];
}

export function guideInstall(tarball: string): GuideInstall {
  const lines = installLines(readFileSync(GUIDE, "utf8"));
  return {
    sqliteServer: take(lines, "a server on SQLite", tarball),
    pgServer: take(lines, "a server on PostgreSQL", tarball),
    reactApp: take(lines, "a React app", tarball),
    typescript: take(lines, "--save-dev tsx typescript @types/node", tarball),
  };
}

/** The README's install lines, each as the package list it installs: every one must be one of the guide's. */
export function readmeAndGuidePackages(): { readme: string[][]; guide: string[][] } {
  const list = (markdown: string) => [...installLines(markdown).values()].map((args) => args.filter((arg) => !TARBALL.test(arg)).sort());
  return { readme: list(readFileSync(README, "utf8")), guide: list(readFileSync(GUIDE, "utf8")) };
}
