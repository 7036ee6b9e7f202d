import { BASIC_COMPONENTS, extractRefFields } from "@a2ui/web_core/v0_9";
import { describe, expect, it } from "vitest";
import { basicCatalog } from "./catalog.ts";
import { readComponentSchema } from "./component-schema.ts";

describe("readComponentSchema", () => {
  it("finds the same child references in the basic catalog's JSON Schema as web_core finds in its zod schemas", () => {
    const catalog = basicCatalog();
    for (const api of BASIC_COMPONENTS) {
      const fromLibrary = [...extractRefFields(api.schema)].map(([name, kind]) => [
        name,
        kind.kind === "nested" ? { kind: "nested", keys: [...kind.keys] } : kind,
      ]);
      const schema = catalog.components[api.name];
      if (!schema) throw new Error(`${api.name} is missing from the basic catalog`);
      expect([...readComponentSchema(schema).refFields], api.name).toEqual(fromLibrary);
    }
  });

  it("reads required properties through allOf", () => {
    const catalog = basicCatalog();
    expect(readComponentSchema(catalog.components.Text ?? {}).required).toEqual(["text"]);
    expect(readComponentSchema(catalog.components.Button ?? {}).required).toEqual(["child"]);
  });

  it("honours the a2ui-toolkit's componentRef formats in hand-written catalogs", () => {
    const schema = {
      properties: { header: { type: "string", format: "componentRef" }, rows: { type: "array", format: "componentRefList" } },
      required: ["header"],
    };
    expect(readComponentSchema(schema)).toEqual({
      required: ["header"],
      refFields: new Map([
        ["header", { kind: "single" }],
        ["rows", { kind: "list" }],
      ]),
    });
  });
});
