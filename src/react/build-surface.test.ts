import { describe, expect, it } from "vitest";
import { buildSurface } from "./build-surface.ts";

/** A one-button surface as the server sends it, created under `catalogId`. */
const operations = (catalogId: string) => [
  { version: "v0.9", createSurface: { surfaceId: "s1", catalogId } },
  {
    version: "v0.9",
    updateComponents: {
      surfaceId: "s1",
      components: [
        { id: "root", component: "Button", child: "label", action: { event: { name: "go", context: { n: 1 } } } },
        { id: "label", component: "Text", text: "Go" },
      ],
    },
  },
];

describe("buildSurface", () => {
  it.each([
    ["@a2ui/web_core", "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"],
    ["the A2UI middleware and CopilotKit", "https://a2ui.org/specification/v0_9/basic_catalog.json"],
  ])("draws a basic-catalog surface under the id %s gives the catalog", (_, catalogId) => {
    const built = buildSurface("s1", operations(catalogId), () => {});
    expect(built.error).toBeUndefined();
    expect(built.surface?.componentsModel.get("root")?.type).toBe("Button");
  });

  it("says why when the processor refuses the operations", () => {
    const built = buildSurface("s1", operations("https://example.com/unknown.json"), () => {});
    expect(built.error).toEqual({ code: "RENDERER_REFUSED", message: "Catalog not found: https://example.com/unknown.json" });
  });
});
