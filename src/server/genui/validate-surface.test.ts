import { tryParseA2UIOperations } from "@ag-ui/a2ui-middleware";
import { A2uiMessageListSchema } from "@a2ui/web_core/v0_9";
import { describe, expect, it } from "vitest";
import { BASIC_CATALOG_ID, basicCatalog, validateSurface, type SurfaceCatalog, type SurfaceErrorCode } from "./validate-surface.ts";

const catalogs = [basicCatalog()];

/** Card > Column > Text + Button, the Button's action context bound to the data model. */
function validCard() {
  return {
    surfaceId: "request-R-1042",
    components: [
      { id: "root", component: "Card", child: "body" },
      { id: "body", component: "Column", children: ["title", "open"] },
      { id: "title", component: "Text", text: { path: "/request/title" }, variant: "h2" },
      { id: "open", component: "Button", child: "open-label", action: { event: { name: "open_detail", context: { requestId: { path: "/request/id" } } } } },
      { id: "open-label", component: "Text", text: "Open detail" },
    ] as Record<string, unknown>[],
    data: { request: { id: "R-1042", title: "Printer jams on floor 3" } } as Record<string, unknown>,
  };
}

function errorsOf(args: unknown, options = { catalogs }) {
  const result = validateSurface(args, options);
  if (result.ok) throw new Error("expected validation to fail");
  return result.errors;
}

function codesOf(args: unknown, options = { catalogs }): SurfaceErrorCode[] {
  return errorsOf(args, options).map((error) => error.code);
}

function withComponents(change: (components: Record<string, unknown>[]) => void) {
  const args = validCard();
  change(args.components);
  return args;
}

describe("validateSurface", () => {
  it("turns a valid surface into exactly createSurface, updateComponents and updateDataModel", () => {
    const args = validCard();
    const result = validateSurface(args, { catalogs });
    expect(result).toEqual({
      ok: true,
      operations: [
        { version: "v0.9", createSurface: { surfaceId: "request-R-1042", catalogId: BASIC_CATALOG_ID } },
        { version: "v0.9", updateComponents: { surfaceId: "request-R-1042", components: args.components } },
        { version: "v0.9", updateDataModel: { surfaceId: "request-R-1042", path: "/", value: args.data } },
      ],
    });
  });

  it("produces operations that web_core's schemas and the middleware's parser accept", () => {
    const result = validateSurface(validCard(), { catalogs });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(A2uiMessageListSchema.safeParse(result.operations).success).toBe(true);
    expect(tryParseA2UIOperations(JSON.stringify({ a2ui_operations: result.operations }))).toEqual({ operations: result.operations });
  });

  it("leaves out updateDataModel when no data is given", () => {
    const args = withComponents((components) => {
      components[2] = { id: "title", component: "Text", text: "Printer jams" };
      components[3] = { id: "open", component: "Button", child: "open-label", action: { event: { name: "open_detail" } } };
    });
    const result = validateSurface({ surfaceId: args.surfaceId, components: args.components }, { catalogs });
    expect(result.ok && result.operations.map((operation) => Object.keys(operation)[1])).toEqual(["createSurface", "updateComponents"]);
  });

  it("uses the basic catalog when the client declared none", () => {
    expect(validateSurface(validCard()).ok).toBe(true);
  });

  it("reports a wrong outline as schema and stops there", () => {
    expect(errorsOf({ surfaceId: "", components: [{ id: "root" }, "text"] })).toEqual([
      { code: "schema", path: "surfaceId", message: "surfaceId must be a non-empty string" },
      { code: "schema", path: "components[0].component", message: expect.stringContaining("type name") },
      { code: "schema", path: "components[1]", message: "each component must be an object" },
    ]);
    expect(codesOf(null)).toEqual(["schema"]);
    expect(codesOf({ surfaceId: "s", components: [] })).toEqual(["schema"]);
  });

  it("bounds the number of components", () => {
    const components = Array.from({ length: 501 }, (_, index) => ({ id: `t${index}`, component: "Text", text: "x" }));
    expect(errorsOf({ surfaceId: "s", components })).toEqual([{ code: "schema", path: "components", message: expect.stringContaining("at most 500") }]);
  });

  it("reports what web_core's v0.9 message schema rejects with its path", () => {
    const args = withComponents((components) => Object.assign(components[2] as object, { weight: "heavy" }));
    expect(errorsOf(args)).toContainEqual({
      code: "schema",
      path: "operations[1].updateComponents.components[2].weight",
      message: "Expected number, received string",
    });
  });

  it("reports a property the renderer's zod schema refuses", () => {
    const args = withComponents((components) => Object.assign(components[2] as object, { usageHint: "h2" }));
    expect(errorsOf(args)).toEqual([{ code: "schema", path: "components[2]", message: "Unrecognized key(s) in object: 'usageHint'" }]);
  });

  it("reports an unknown component type", () => {
    const args = withComponents((components) => Object.assign(components[2] as object, { component: "Marquee" }));
    expect(errorsOf(args)).toEqual([
      { code: "unknown_component", path: "components[2].component", message: expect.stringContaining("'Marquee' is not a component of any known catalog") },
    ]);
  });

  it("reports a child that does not exist", () => {
    const args = withComponents((components) => Object.assign(components[1] as object, { children: ["title", "open", "ghost"] }));
    expect(errorsOf(args)).toEqual([{ code: "missing_child", path: "components[1].children[2]", message: "'ghost' is not the id of any component" }]);
  });

  it("follows child references the catalog marks, such as Tabs' tabs[].child and Modal's trigger and content", () => {
    const args = withComponents((components) => {
      components[1] = {
        id: "body",
        component: "Tabs",
        tabs: [
          { title: "Main", child: "title" },
          { title: "More", child: "nope" },
        ],
      };
      components.push({ id: "modal", component: "Modal", trigger: "open", content: "missing-content" });
      components[1] = {
        ...components[1],
        tabs: [
          { title: "Main", child: "modal" },
          { title: "More", child: "nope" },
        ],
      };
    });
    expect(errorsOf(args).filter((error) => error.code === "missing_child")).toEqual([
      { code: "missing_child", path: "components[1].tabs[1].child", message: "'nope' is not the id of any component" },
      { code: "missing_child", path: "components[5].content", message: "'missing-content' is not the id of any component" },
    ]);
  });

  it("reports a duplicate id", () => {
    const args = withComponents((components) => components.push({ id: "title", component: "Text", text: "again" }));
    expect(errorsOf(args)).toEqual([{ code: "duplicate_id", path: "components[5].id", message: "the id 'title' is already used by components[2]" }]);
  });

  it("reports a cycle once, at its first component", () => {
    const args = withComponents((components) => {
      components[1] = { id: "body", component: "Column", children: ["title", "open", "inner"] };
      components.push({ id: "inner", component: "Card", child: "body" });
    });
    expect(errorsOf(args)).toEqual([
      { code: "cycle", path: "components[1].children[2]", message: "'body' → 'inner' → 'body': a component cannot contain itself" },
    ]);
  });

  it("reports a surface without a root", () => {
    const args = withComponents((components) => Object.assign(components[0] as object, { id: "card" }));
    expect(errorsOf(args)).toEqual([{ code: "root", path: "components", message: expect.stringContaining("no component has id 'root'") }]);
  });

  it("reports two roots, and a second tree root does not reach", () => {
    const twoRoots = withComponents((components) => components.push({ id: "root", component: "Text", text: "second" }));
    expect(errorsOf(twoRoots)).toEqual([{ code: "root", path: "components[5].id", message: expect.stringContaining("exactly one component with id 'root'") }]);
    const secondTree = withComponents((components) => components.push({ id: "footer", component: "Text", text: "alone" }));
    expect(errorsOf(secondTree)).toEqual([{ code: "root", path: "components[5]", message: expect.stringContaining("'footer' is not reachable from 'root'") }]);
  });

  it("reports a binding that does not resolve, in properties and in action context", () => {
    const args = withComponents((components) => {
      Object.assign(components[2] as object, { text: { path: "/request/name" } });
      Object.assign(components[3] as object, { action: { event: { name: "open_detail", context: { requestId: { path: "/req/id" } } } } });
    });
    expect(errorsOf(args)).toEqual([
      { code: "binding", path: "components[2].text", message: "'/request/name' does not resolve in data" },
      { code: "binding", path: "components[3].action.event.context.requestId", message: "'/req/id' does not resolve in data" },
    ]);
  });

  it("resolves template paths against each list item", () => {
    const args = withComponents((components) => {
      components[1] = { id: "body", component: "Column", children: ["title", "open", "steps"] };
      components.push(
        { id: "steps", component: "List", children: { componentId: "step", path: "/steps" } },
        { id: "step", component: "Text", text: { path: "text" } },
      );
    });
    expect(validateSurface({ ...args, data: { ...args.data, steps: [{ text: "Whisk" }, { text: "Bake" }] } }, { catalogs }).ok).toBe(true);
    expect(errorsOf({ ...args, data: { ...args.data, steps: [{ text: "Whisk" }, { txt: "Bake" }] } })).toEqual([
      { code: "binding", path: "components[6].text", message: "'text' does not resolve at '/steps/1/text' (relative to '/steps/1')" },
    ]);
    expect(errorsOf({ ...args, data: { ...args.data, steps: "none" } })).toEqual([
      { code: "binding", path: "components[5].children.path", message: expect.stringContaining("must point to a list") },
    ]);
  });

  it("reports a component outside the client's catalog", () => {
    const basic = basicCatalog();
    const { Button: _button, ...withoutButton } = basic.components;
    const narrow: SurfaceCatalog = { catalogId: "https://example.com/catalogs/read-only.json", components: withoutButton };
    expect(errorsOf(validCard(), { catalogs: [narrow] })).toEqual([
      { code: "outside_catalog", path: "components[3].component", message: expect.stringContaining("'Button' is in") },
    ]);
  });

  it("reports a catalogId the client did not declare", () => {
    expect(errorsOf({ ...validCard(), catalogId: "https://a2ui.org/specification/v0_9/basic_catalog.json" })).toEqual([
      { code: "outside_catalog", path: "catalogId", message: expect.stringContaining(BASIC_CATALOG_ID) },
    ]);
  });

  it("reports missing required properties", () => {
    const args = withComponents((components) => {
      components[2] = { id: "title", component: "Text" };
      components[3] = { id: "open", component: "Button", action: { event: { name: "open_detail" } } };
    });
    expect(errorsOf(args)).toEqual([
      { code: "root", path: "components[4]", message: expect.stringContaining("'open-label' is not reachable") },
      { code: "missing_property", path: "components[2].text", message: "'Text' requires the property 'text'" },
      { code: "missing_property", path: "components[3].child", message: "'Button' requires the property 'child'" },
    ]);
  });

  it("collects every error, in check order", () => {
    const args = withComponents((components) => {
      components.push({ id: "title", component: "Text", text: "dup" });
      Object.assign(components[1] as object, { children: ["title", "open", "ghost"] });
      Object.assign(components[4] as object, { component: "Label" });
      Object.assign(components[2] as object, { text: { path: "/nowhere" } });
    });
    expect(codesOf(args)).toEqual(["duplicate_id", "missing_child", "unknown_component", "binding"]);
  });
});
