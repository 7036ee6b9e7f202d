import { describe, expect, it } from "vitest";
import { duration, quantity } from "./quantity.ts";

describe("quantity", () => {
  it("writes amounts as a cook reads them", () => {
    expect(quantity({ name: "rice", quantity: 400, unit: "g" })).toBe("400 g");
    expect(quantity({ name: "eggs", quantity: 3, unit: "" })).toBe("3");
    expect(quantity({ name: "soy sauce", quantity: 1.5, unit: "tbsp" })).toBe("1½ tbsp");
    expect(quantity({ name: "salt", quantity: 0.25, unit: "tsp" })).toBe("¼ tsp");
    expect(quantity({ name: "milk", quantity: 0.3, unit: "cup" })).toBe("0.3 cup");
  });
});

describe("duration", () => {
  it("writes seconds, minutes and hours", () => {
    expect(duration(30)).toBe("30 s");
    expect(duration(180)).toBe("3 min");
    expect(duration(4800)).toBe("1 h 20 min");
    expect(duration(3600)).toBe("1 h");
  });
});
