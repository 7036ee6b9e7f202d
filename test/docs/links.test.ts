import { existsSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { documentationFiles, headingAnchors, links, readDocument, ROOT } from "./markdown.ts";

/** What is wrong with one relative link of `document`, or undefined when it resolves. */
function brokenLink(document: string, target: string): string | undefined {
  const [path = "", anchor] = target.split("#", 2) as [string, string | undefined];
  const file = path === "" ? document : normalize(join(dirname(document), decodeURI(path)));
  if (file.startsWith("..")) return `${target} leaves the repository`;
  if (!existsSync(join(ROOT, file))) return `${target}: no file ${file}`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith(".md") || statSync(join(ROOT, file)).isDirectory()) return `${target}: an anchor into ${file}, which has no headings`;
  return headingAnchors(readDocument(file)).has(anchor) ? undefined : `${target}: ${file} has no heading #${anchor}`;
}

describe("links in README.md and docs/", () => {
  const files = documentationFiles();

  it("reads the README and the docs pages", () => {
    expect(files).toContain("README.md");
    expect(files).toContain("docs/guide.md");
  });

  it.each(files)("%s: every relative link names a file that exists, and every #anchor a heading in it", (document) => {
    const broken = links(readDocument(document))
      .filter(({ target }) => !/^[a-z][a-z+.-]*:/i.test(target)) // http:, https:, mailto: are not the repository's
      .flatMap(({ target, line }) => {
        const problem = brokenLink(document, target);
        return problem ? [`${document}:${line}: ${problem}`] : [];
      });
    expect(broken).toEqual([]);
  });
});

describe("headingAnchors", () => {
  it("gives the anchors GitHub gives", () => {
    const anchors = headingAnchors("# Tether\n## Many slow streams: `npm run bench:load`\n## Try it\n## Try it\n```sh\n# not a heading\n```\n");
    expect([...anchors]).toEqual(["tether", "many-slow-streams-npm-run-benchload", "try-it", "try-it-1"]);
  });
});
