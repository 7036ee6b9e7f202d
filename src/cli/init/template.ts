import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The starter's files, shipped in the package: three folders up from this file, in src/ as in dist/. */
export const STARTER_TEMPLATE = fileURLToPath(new URL("../../../templates/starter/", import.meta.url));

/**
 * Files kept under another name in the template: npm pack leaves `.gitignore` out of a package, and
 * a `tsconfig.json` there would claim the template's files from the repository's own tsconfig.
 */
const STORED_AS: Record<string, string> = { gitignore: ".gitignore", "tsconfig.template.json": "tsconfig.json" };

export interface TemplateFile {
  /** Where it is in the template. */
  source: string;
  /** Where it goes in the new app, relative to its folder, with / between folders. */
  target: string;
}

/** Every file of the template, and the name it takes in the app. */
export function templateFiles(folder = STARTER_TEMPLATE, prefix = ""): TemplateFile[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const source = join(folder, entry.name);
    if (entry.isDirectory()) return templateFiles(source, `${prefix}${entry.name}/`);
    return [{ source, target: `${prefix}${STORED_AS[entry.name] ?? entry.name}` }];
  });
}
