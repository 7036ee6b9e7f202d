import { describe, expect, it } from "vitest";
import { readSelection, runHref, threadHref } from "./links.ts";

describe("the viewer's addresses", () => {
  it("reads a thread, a run, or both, and ignores empty ones", () => {
    expect(readSelection("?thread=t-1")).toEqual({ threadId: "t-1" });
    expect(readSelection("?run=r-1&thread=t-1")).toEqual({ threadId: "t-1", runId: "r-1" });
    expect(readSelection("?run=&thread=%20")).toEqual({});
    expect(readSelection("?run=r-1&limit=5")).toEqual({ runId: "r-1", limit: 5 });
    expect(readSelection("?run=r-1&limit=-2")).toEqual({ runId: "r-1" });
  });

  it("writes links that read back as what they point to", () => {
    expect(readSelection(new URL(runHref("r/1", "t 1"), "http://x").search)).toEqual({ threadId: "t 1", runId: "r/1" });
    expect(runHref("r-2")).toBe("/runs/?run=r-2");
    expect(threadHref("t-1")).toBe("/runs/?thread=t-1");
  });
});
