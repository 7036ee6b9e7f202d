import { describe, expect, it } from "vitest";
import { appPackageJson, STARTER_DEPENDENCIES, STARTER_DEV_DEPENDENCIES } from "./app-package.ts";
import { readTetherPackage } from "./tether-package.ts";

describe("the starter app's package.json", () => {
  it("gives Tether's peers the ranges Tether itself declares", () => {
    const peers = readTetherPackage().peerDependencies;
    const given = Object.entries({ ...STARTER_DEPENDENCIES, ...STARTER_DEV_DEPENDENCIES }).filter(([name]) => name in peers);

    expect(given.map(([name]) => name).sort()).toEqual([
      "@a2ui/markdown-it",
      "@a2ui/react",
      "@ai-sdk/openai",
      "@hono/node-server",
      "better-sqlite3",
      "hono",
      "react",
      "react-dom",
      "streamdown",
    ]);
    for (const [name, range] of given) expect(range, name).toBe(peers[name]);
  });

  it("lists the dependencies in npm's order, with Tether among them", () => {
    const manifest = JSON.parse(appPackageJson("my-app", "^0.1.0")) as { dependencies: Record<string, string> };
    const names = Object.keys(manifest.dependencies);

    expect(manifest.dependencies["@tether-agent/tether"]).toBe("^0.1.0");
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
  });
});
