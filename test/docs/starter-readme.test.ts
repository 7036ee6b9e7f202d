import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { codeBlocks, type CodeBlock, readDocument, ROOT } from "./markdown.ts";

/**
 * The README of the app `tether init` writes (templates/starter/README.md) shows changes to the
 * app's own files. Each ts and tsx block is type-checked where it goes, against the template's
 * files as they are: `// Add to tools.ts` appends the block to that file, `// Add inside App() in
 * src/App.tsx` puts it before App's `return (`, and any other block is a module of its own beside
 * the app's files, so `./playbook.ts` is the real one.
 */
const STARTER = join(ROOT, "templates/starter");
const README = "templates/starter/README.md";

const APPENDED = /^\/\/ Add to ([\w./-]+\.tsx?)\b/;
const INSIDE = /^\/\/ Add inside (\w+)\(\) in ([\w./-]+\.tsx?)\b/;

interface Placement {
  block: CodeBlock;
  /** The file the block is checked in: a template file it changes, or one of its own. */
  fileName: string;
  /** Lines of that file the block takes, from 0, end excluded. */
  lines: [number, number];
}

/** Every block where it goes: the template's files with their additions, and the blocks of their own. */
function placeBlocks(blocks: CodeBlock[]): { files: Map<string, string>; placements: Placement[] } {
  const files = new Map<string, string>();
  const placements: Placement[] = [];
  const changed = new Map<string, { inside: CodeBlock[]; into?: string; appended: CodeBlock[] }>();
  for (const block of blocks) {
    const inside = INSIDE.exec(block.code);
    const appended = APPENDED.exec(block.code);
    const target = inside?.[2] ?? appended?.[1];
    if (!target) {
      const fileName = join(STARTER, `readme-line-${block.line}.${block.language}`);
      files.set(fileName, block.code);
      placements.push({ block, fileName, lines: [0, block.code.split("\n").length] });
      continue;
    }
    const change = changed.get(join(STARTER, target)) ?? { inside: [], appended: [] };
    changed.set(join(STARTER, target), change);
    if (inside) change.into = inside[1];
    change[inside ? "inside" : "appended"].push(block);
  }
  for (const [fileName, { inside, into, appended }] of changed) {
    const original = readFileSync(fileName, "utf8").split("\n");
    // Before the named function's `return (`; the blocks appended go at the end.
    const start = into ? original.findIndex((line) => line.includes(`function ${into}(`)) : -1;
    const at = into ? original.findIndex((line, index) => start >= 0 && index > start && /^\s*return \(/.test(line)) : original.length;
    if (at < 0) throw new Error(`${fileName} has no function ${into}() with a \`return (\` for the README's blocks to go inside`);
    const lines = original.slice(0, at);
    const place = (block: CodeBlock) => {
      placements.push({ block, fileName, lines: [lines.length, lines.length + block.code.split("\n").length] });
      lines.push(...block.code.split("\n"));
    };
    inside.forEach(place);
    lines.push(...original.slice(at));
    appended.forEach(place);
    files.set(fileName, lines.join("\n"));
  }
  return { files, placements };
}

/** One program over the changed files and the blocks of their own; each block's diagnostics, as README lines. */
function typeCheck(files: Map<string, string>, placements: Placement[]): Map<CodeBlock, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error("tsconfig.json could not be read");
  const options = { ...config.options, noUnusedLocals: false, noUnusedParameters: false, noEmit: true };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, language, ...rest) => {
    const code = files.get(fileName);
    return code === undefined ? getSourceFile.call(host, fileName, language, ...rest) : ts.createSourceFile(fileName, code, language, true);
  };
  host.fileExists = (fileName) => files.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => files.get(fileName) ?? readFile.call(host, fileName);
  const program = ts.createProgram([...files.keys()], options, host);
  const found = new Map<CodeBlock, string[]>(placements.map((placement) => [placement.block, []]));
  for (const fileName of files.keys()) {
    const source = program.getSourceFile(fileName)!;
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
      const placement = placements.find((candidate) => candidate.fileName === fileName && line >= candidate.lines[0] && line < candidate.lines[1]);
      // Outside every block: the template's own line, broken by what a block added before it.
      const blamed = placement ?? placements.find((candidate) => candidate.fileName === fileName)!;
      const where = placement
        ? `${README}:${placement.block.line + 1 + line - placement.lines[0]}`
        : `${fileName} with the README's additions, line ${line + 1}`;
      found.get(blamed.block)!.push(`${where}: ${message}`);
    }
  }
  return found;
}

describe("the starter's README", () => {
  const blocks = codeBlocks(readDocument(README)).filter((block) => block.language === "ts" || block.language === "tsx");
  let diagnostics: Map<CodeBlock, string[]>;
  beforeAll(() => {
    const { files, placements } = placeBlocks(blocks);
    diagnostics = typeCheck(files, placements);
  }, 120_000);

  it("shows a provider, a server tool, a browser tool and an approval, each changing files the app has", () => {
    const code = blocks.map((block) => block.code).join("\n");
    for (const shown of ["@ai-sdk/anthropic", "defineTool(", "defineBrowserTool(", "useBrowserTool(", "needsApproval: true"]) expect(code).toContain(shown);
    for (const block of blocks) {
      const target = INSIDE.exec(block.code)?.[2] ?? APPENDED.exec(block.code)?.[1];
      if (target) expect(existsSync(join(STARTER, target)), `${README}:${block.line} changes ${target}`).toBe(true);
    }
  });

  it.each(blocks.map((block) => [`${README}:${block.line}`, block] as const))("%s type-checks where it goes", (_, block) => {
    expect(diagnostics.get(block)!.join("\n")).toBe("");
  });
});
