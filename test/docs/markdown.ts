import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root, where README.md and docs/ are. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** README.md and every Markdown file under docs/, as paths from the root. */
export function documentationFiles(): string[] {
  const underDocs = (folder: string): string[] =>
    readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return underDocs(path);
      return entry.name.endsWith(".md") ? [path] : [];
    });
  return ["README.md", ...underDocs("docs")].sort();
}

export function readDocument(path: string): string {
  return readFileSync(join(ROOT, path), "utf8");
}

export interface CodeBlock {
  /** The fence's language, the first word of its info string (`ts`, `tsx`, `sh`). */
  language: string;
  code: string;
  /** The line of the opening fence, counted from 1. */
  line: number;
}

/** The fenced code blocks of a Markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const open = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[index]!);
    if (!open) continue;
    const fence = open[1]!;
    const start = index;
    const body: string[] = [];
    while (++index < lines.length && !lines[index]!.startsWith(fence)) body.push(lines[index]!);
    blocks.push({ language: open[2]!, code: body.join("\n"), line: start + 1 });
  }
  return blocks;
}

/** The document with every fenced code block's lines blank, so line numbers still match. */
export function outsideFences(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split("\n")
    .map((line) => {
      const marker = /^(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence) {
        if (marker && line.startsWith(fence)) fence = undefined;
        return "";
      }
      if (marker) fence = marker;
      return marker ? "" : line;
    })
    .join("\n");
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of outsideFences(markdown).split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

export interface Link {
  target: string;
  line: number;
}

/** Every link and image target in a document's prose: `[text](target)` and `[name]: target` definitions. */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  outsideFences(markdown)
    .split("\n")
    .map((line) => line.replace(/`[^`]*`/g, "``")) // inline code is not a link
    .forEach((text, index) => {
      for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: match[1]!, line: index + 1 });
      const definition = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(text);
      if (definition) found.push({ target: definition[1]!, line: index + 1 });
    });
  return found;
}
