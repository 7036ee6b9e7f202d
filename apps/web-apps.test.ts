import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DOJO_WEB, WORKDESK_WEB } from "./web-apps.ts";

describe("the Workdesk page's sources", () => {
  it("include the agent's modules the page bundles (its tool specs, screens), so changing them rebuilds the page", () => {
    expect(WORKDESK_WEB.sources).toContain(fileURLToPath(new URL("./workdesk/agent", import.meta.url)));
  });
});

describe("the dojo pages' sources", () => {
  it("include the dojo agents' folder (the browser tools and the recipe the pages bundle), so changing them rebuilds the pages", () => {
    expect(DOJO_WEB.sources).toContain(fileURLToPath(new URL("./dojo/agent", import.meta.url)));
  });
});
