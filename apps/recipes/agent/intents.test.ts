import { describe, expect, it } from "vitest";
import { readIntent, readNumber } from "./intents.ts";

describe("readIntent", () => {
  it.each([
    ["Something quick with leftover rice?", { kind: "find", query: "something with leftover rice", maxMinutes: 20 }],
    ["vegetarian curry in 30 minutes", { kind: "find", query: "curry", diet: "vegetarian", maxMinutes: 30 }],
    ["save egg fried rice", { kind: "save" }],
    ["save it", { kind: "save" }],
    ["put it in my cookbook", { kind: "save" }],
    ["order the ingredients for 4", { kind: "order", servings: 4 }],
    ["order egg fried rice for two people", { kind: "order", servings: 2 }],
    ["order it", { kind: "order" }],
    ["set a timer for 5 minutes", { kind: "timer", seconds: 300 }],
    ["timer for ninety", { kind: "timer" }],
    ["start a timer for step 3", { kind: "timer", step: 3 }],
    ["a 1 hour timer", { kind: "timer", seconds: 3600 }],
    ["What can I use instead of eggs?", { kind: "swap", ingredient: "eggs" }],
    ["no chicken please", { kind: "swap", ingredient: "chicken" }],
    ["any swaps?", { kind: "swap" }],
    ["show me r-204", { kind: "show" }],
    ["show r-204", { kind: "show" }],
    ["Show me how to make r-204", { kind: "show" }],
    ["How do I make egg fried rice?", { kind: "show" }],
    ["how to cook vegetable fried rice", { kind: "show" }],
    ["recipe card for egg fried rice", { kind: "show" }],
    ["show the recipe for egg fried rice", { kind: "show" }],
    ["walk me through the granola", { kind: "show" }],
    ["hello", { kind: "greet" }],
    ["what can you do", { kind: "help" }],
    ["tell me a joke about cars", { kind: "unknown" }],
  ])("reads %j", (text, intent) => {
    expect(readIntent(text)).toEqual(intent);
  });
});

describe("readNumber", () => {
  it("reads digits and number words, and nothing else", () => {
    expect(readNumber("3")).toBe(3);
    expect(readNumber("three")).toBe(3);
    expect(readNumber("Twelve")).toBe(12);
    expect(readNumber("0")).toBeUndefined();
    expect(readNumber("many")).toBeUndefined();
    expect(readNumber(undefined)).toBeUndefined();
  });
});
