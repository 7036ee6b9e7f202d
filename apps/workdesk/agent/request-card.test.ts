import { describe, expect, it } from "vitest";
import { validateSurface } from "@tether-agent/tether/genui";
import { requestCard } from "./request-card.ts";

const R1042 = { id: "R-1042", title: "Badge reader at gate 3", status: "in_progress" as const, priority: "high" as const, requester: "kim" };

describe("the work request card", () => {
  it("passes Tether's own validation of the basic catalog, bindings included", () => {
    const validation = validateSurface(requestCard(R1042), {});
    expect(validation.ok ? [] : validation.errors).toEqual([]);
  });

  it("offers Open detail and Close as fixed, carrying the request's id, and no close on a closed request", () => {
    const buttons = (card: ReturnType<typeof requestCard>) =>
      card.components.flatMap((component) => ("action" in component ? [(component.action as { event: { name: string } }).event.name] : []));
    expect(buttons(requestCard(R1042))).toEqual(["open_detail", "close_request"]);
    expect(buttons(requestCard({ ...R1042, status: "closed" }))).toEqual(["open_detail"]);
    expect(validateSurface(requestCard({ ...R1042, status: "closed" }), {}).ok).toBe(true);
  });
});
