import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { WORKDESK_WEB } from "./web-apps.ts";

describe("the Workdesk page's sources", () => {
  it("include the agent's modules the page bundles (its tool specs, screens), so changing them rebuilds the page", () => {
    expect(WORKDESK_WEB.sources).toContain(fileURLToPath(new URL("./workdesk/agent", import.meta.url)));
  });
});
