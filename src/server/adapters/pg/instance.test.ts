import { afterEach, describe, expect, it, vi } from "vitest";
import { holdInstanceLock } from "./instance.ts";
import type { PgRunner, PgSession } from "./runner.ts";

/** A runner whose sessions the test can break, as pg_terminate_backend or a network cut breaks a connection. */
function breakableRunner() {
  const sessions: Array<{ break(error: unknown): void; released: boolean }> = [];
  const runner = {
    async session(): Promise<PgSession> {
      const listeners: Array<(error: unknown) => void> = [];
      const session = { break: (error: unknown) => listeners.splice(0).forEach((listener) => listener(error)), released: false };
      sessions.push(session);
      return {
        query: async () => ({ rows: [{ taken: true }] as never[], count: 0 }), // the lock is free: taken
        onLost: (listener) => void listeners.push(listener),
        release: async () => void (session.released = true),
      };
    },
  } as unknown as PgRunner;
  return { runner, sessions };
}

describe("holdInstanceLock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("tells its listeners when the lock's connection breaks, is not held until it is taken again, and gives the broken connection back", async () => {
    vi.useFakeTimers();
    const { runner, sessions } = breakableRunner();
    const told: unknown[] = [];
    const lock = await holdInstanceLock(runner, "tether:a", { onLost: (error) => told.push(error) });
    lock.onLost((error) => told.push(error));
    expect(lock.held()).toBe(true);

    sessions[0]!.break(new Error("terminating connection due to administrator command"));

    expect(told).toHaveLength(2);
    expect(lock.held()).toBe(false);
    expect(sessions[0]!.released).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sessions).toHaveLength(2);
    expect(lock.held()).toBe(true);
    await lock.release();
    expect(sessions[1]!.released).toBe(true);
  });
});
