import type { Tool } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { compareTools, formatDrift, formatNotes, hasDrift } from "./drift.ts";

const allowed: Tool = {
  name: "offerRecipes",
  description: "Offers recipes.",
  parameters: {
    type: "object",
    properties: { recipes: { type: "array", items: { type: "object", properties: { reason: { type: "string", description: "Why it fits." } } } } },
  },
};

/** offerRecipes as a page declares it, its recipe item's `reason` schema replaced. */
function declared(reason: Record<string, unknown>): Tool {
  const parameters = structuredClone(allowed.parameters);
  parameters.properties.recipes.items.properties.reason = reason;
  return { ...allowed, parameters };
}

describe("compareTools", () => {
  it("notes a reworded nested description without calling it drift", () => {
    const report = compareTools([declared({ type: "string", description: "Offer exactly one." })], [allowed]);

    expect(hasDrift(report)).toBe(false);
    expect(report.notes).toEqual([{ name: "offerRecipes", path: "properties.recipes.items.properties.reason.description" }]);
    expect(formatNotes(report)).toBe("note: offerRecipes: properties.recipes.items.properties.reason.description differs (the frontend's wording is used)");
  });

  it("reports a changed nested type as drift, its diff naming only the shape", () => {
    const report = compareTools([declared({ type: "number", description: "Offer exactly one." })], [allowed]);

    expect(hasDrift(report)).toBe(true);
    expect(formatDrift(report).split("\n")).toEqual([
      "offerRecipes: parameters differ from the server's",
      '    properties.recipes.items.properties.reason.type: expected "string", got "number"',
    ]);
    expect(report.notes.map((note) => note.path)).toEqual(["properties.recipes.items.properties.reason.description"]);
  });
});
