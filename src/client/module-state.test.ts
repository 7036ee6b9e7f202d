import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The browser SDK keeps no state at module scope: a map there is shared by
 * every session in a page and every test in a worker, and grows with all of
 * them. State lives on the object that owns it (the session, its runner).
 */
describe("src/client", () => {
  it("declares no mutable state at module scope", () => {
    const directory = new URL(".", import.meta.url);
    const offending = readdirSync(directory, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .flatMap((file) =>
        readFileSync(new URL(file, directory), "utf8")
          .split("\n")
          .filter((line) => /^(export )?(let|var) /.test(line) || /^(export )?const \w+(: [^=]+)? = new /.test(line))
          .map((line) => `${file}: ${line}`),
      );
    expect(offending).toEqual([]);
  });
});
