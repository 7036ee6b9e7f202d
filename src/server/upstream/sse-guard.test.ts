import { describe, expect, it } from "vitest";
import { createSseGuard } from "./sse-guard.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const through = (guard: (piece: Uint8Array) => Uint8Array, ...pieces: string[]) => pieces.map((piece) => decode(guard(encode(piece)))).join("");

describe("createSseGuard", () => {
  it("turns CRLF and lone CR line ends into LF, across pieces too", () => {
    const guard = createSseGuard(1024);
    expect(through(guard, "data: a\r\n\r\n", "data: b\r", "\n\r", "\ndata: c\r\r")).toBe("data: a\n\ndata: b\n\ndata: c\n\n");
  });

  it("passes a piece without CR on as it is", () => {
    const guard = createSseGuard(1024);
    const piece = encode("data: a\n\n");
    expect(guard(piece)).toBe(piece);
  });

  it("refuses an event longer than the cap, however it is cut into pieces", () => {
    const guard = createSseGuard(11);
    expect(through(guard, "data: 1234\n\n", "data:", " 1234\n", "\n")).toBe("data: 1234\n\ndata: 1234\n\n");
    expect(() => through(guard, "data: ", "12345", "6")).toThrow(/more than 11 bytes/);
  });

  it("counts a line that never ends, and comments without a blank line, as one event", () => {
    const guard = createSseGuard(10);
    expect(() => through(guard, ": ping\n", ": ping\n")).toThrow(expect.objectContaining({ code: "upstream_error" }));
  });

  it("starts counting again after each blank line, also one split between pieces", () => {
    const guard = createSseGuard(10);
    expect(() => through(guard, "data: 12\n", "\ndata: 12\n", "\ndata: 12\n\n")).not.toThrow();
  });
});
