import { basicCatalog as webCoreBasicCatalog } from "@a2ui/web_core/v0_9/basic_catalog";
import { describe, expect, it } from "vitest";
import { BASIC_CATALOG_ID, MIDDLEWARE_BASIC_CATALOG_ID } from "../catalog-ids.ts";
import { A2UI_SCHEMA_CONTEXT_DESCRIPTION, clientCatalogs } from "./client-catalogs.ts";

describe("the catalogs a client declares", () => {
  it("writes out the basic catalog's id exactly as @a2ui/web_core registers it", () => {
    expect(BASIC_CATALOG_ID).toBe(webCoreBasicCatalog.id);
  });

  it("gives a client that says nothing the basic catalog", () => {
    expect(clientCatalogs({ context: [], forwardedProps: {} })).toEqual([{ catalogId: BASIC_CATALOG_ID }]);
  });

  it("takes the basic catalog under either of its names, and an inline catalog from the middleware's context entry", () => {
    const inline = { catalogId: "https://example.com/cards.json", components: { RequestCard: { type: "object", required: ["requestId"] } } };
    const catalogs = clientCatalogs({
      context: [
        { description: "something else", value: "{}" },
        { description: A2UI_SCHEMA_CONTEXT_DESCRIPTION, value: JSON.stringify(inline) },
      ],
      forwardedProps: { a2uiClientCapabilities: { supportedCatalogIds: [MIDDLEWARE_BASIC_CATALOG_ID, "https://example.com/unknown.json", 7] } },
    });
    expect(catalogs).toEqual([inline, { catalogId: MIDDLEWARE_BASIC_CATALOG_ID }]);
  });

  it("gives a client whose catalogs Tether does not know none, so nothing is generated it cannot render", () => {
    expect(clientCatalogs({ context: [], forwardedProps: { a2uiClientCapabilities: { supportedCatalogIds: ["https://example.com/unknown.json"] } } })).toEqual(
      [],
    );
  });

  it("ignores a context entry that is not a catalog", () => {
    for (const value of ["not json", "[]", '{"catalogId":7,"components":{}}', '{"catalogId":"x","components":[]}']) {
      expect(clientCatalogs({ context: [{ description: A2UI_SCHEMA_CONTEXT_DESCRIPTION, value }], forwardedProps: {} }), value).toEqual([
        { catalogId: BASIC_CATALOG_ID },
      ]);
    }
  });
});
