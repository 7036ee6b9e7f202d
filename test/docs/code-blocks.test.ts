import { dirname, join } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { codeBlocks, documentationFiles, readDocument, ROOT } from "./markdown.ts";

/**
 * Every `ts` and `tsx` block of README.md and docs/ is type-checked as a module of its own, with the
 * project's compiler options and the package's own entry points, as a reader's app would import them.
 * Names a block leaves to the reader's app (`yourSession`, `findScreens`…) are declared in reader-app.d.ts.
 * A block whose first line is a comment naming a file (`// tools.ts`) is compiled under that name, so a
 * later block of the same document can import it (`import { navigateToScreen } from "./tools.ts"`).
 */
interface CheckedBlock {
  document: string;
  line: number;
  /** Where the block is compiled from: a file that exists only in memory, under docs/. */
  fileName: string;
  code: string;
}

function typeScriptBlocks(): CheckedBlock[] {
  return documentationFiles().flatMap((document) =>
    codeBlocks(readDocument(document))
      .filter((block) => block.language === "ts" || block.language === "tsx")
      .map((block) => ({
        document,
        line: block.line,
        fileName: join(ROOT, "docs", ".code-blocks", document.replace(/[/.]/g, "_"), namedFile(block.code) ?? `line-${block.line}.${block.language}`),
        code: block.code,
      })),
  );
}

/** The file a block names in its first line (`// server.ts — …`), if it names one. */
function namedFile(code: string): string | undefined {
  return /^\/\/ ([\w-]+\.tsx?)\b/.exec(code)?.[1];
}

/** One program for all blocks: each block's diagnostics, as `document:line` of the Markdown. */
function typeCheck(blocks: CheckedBlock[]): Map<CheckedBlock, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error("tsconfig.json could not be read");
  // A block is a fragment: it may declare what it then leaves unused.
  const options = { ...config.options, noUnusedLocals: false, noUnusedParameters: false, noEmit: true };
  const inMemory = new Map(blocks.map((block) => [block.fileName, block.code]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, language, ...rest) => {
    const code = inMemory.get(fileName);
    return code === undefined ? getSourceFile.call(host, fileName, language, ...rest) : ts.createSourceFile(fileName, code, language, true);
  };
  host.fileExists = (fileName) => inMemory.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => inMemory.get(fileName) ?? readFile.call(host, fileName);
  // The blocks' folders exist only in memory too; module resolution looks for them before their files.
  const folders = new Set([...inMemory.keys()].map((fileName) => dirname(fileName)));
  const { directoryExists } = host;
  host.directoryExists = (folder) => folders.has(folder) || (directoryExists?.call(host, folder) ?? ts.sys.directoryExists(folder));
  const program = ts.createProgram([...inMemory.keys(), join(ROOT, "test/docs/reader-app.d.ts")], options, host);
  const global = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map((diagnostic) => describeDiagnostic(diagnostic));
  return new Map(
    blocks.map((block) => {
      const source = program.getSourceFile(block.fileName)!;
      const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      return [block, [...global, ...diagnostics.map((diagnostic) => describeDiagnostic(diagnostic, block))]];
    }),
  );
}

function describeDiagnostic(diagnostic: ts.Diagnostic, block?: CheckedBlock): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  if (!block || !diagnostic.file || diagnostic.start === undefined) return message;
  const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${block.document}:${block.line + 1 + line}: ${message}`;
}

describe("TypeScript code blocks in README.md and docs/", () => {
  const blocks = typeScriptBlocks();
  let diagnostics: Map<CheckedBlock, string[]>;
  beforeAll(() => {
    diagnostics = typeCheck(blocks);
  }, 120_000);

  it("are found in the README and the guide", () => {
    expect(blocks.some((block) => block.document === "README.md")).toBe(true);
    expect(blocks.some((block) => block.document === "docs/guide.md")).toBe(true);
  });

  it("give each file a block names one block of its document", () => {
    const names = blocks.map((block) => block.fileName);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });

  it.each(blocks.map((block) => [`${block.document}:${block.line}`, block] as const))("%s type-checks", (_, block) => {
    expect(diagnostics.get(block)!.join("\n")).toBe("");
  });
});
