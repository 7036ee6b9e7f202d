import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createReadConnections } from "./read-connections.ts";

/** A main connection whose duplicates are counted, open or closed. */
function counted() {
  const made: { options: unknown; closed: boolean }[] = [];
  const redis = {
    duplicate(options: unknown) {
      const entry = { options, closed: false };
      made.push(entry);
      return { status: "ready", on() {}, disconnect: () => void (entry.closed = true) } as unknown as Redis;
    },
  } as unknown as Redis;
  return { redis, made, open: () => made.filter((entry) => !entry.closed).length };
}

describe("createReadConnections", () => {
  it("opens at most `max` connections, gives none past them, and reuses one given back", () => {
    const { redis, made, open } = counted();
    const connections = createReadConnections(redis, { max: 2, idle: 1, commandTimeoutMs: 3000 });
    const first = connections.borrow()!;
    const second = connections.borrow()!;
    expect(connections.borrow()).toBeUndefined();
    connections.release(first);
    expect(connections.borrow()).toBe(first);
    expect(made).toHaveLength(2);
    expect(made[0]!.options).toMatchObject({ commandTimeout: 3000, connectionName: "tether-reader" });
    // One a read failed on is closed, and makes room for a new one.
    connections.release(second, true);
    expect(open()).toBe(1);
    expect(connections.borrow()).toBeDefined();
    expect(made).toHaveLength(3);
    connections.close();
    expect(open()).toBe(0);
  });
});
