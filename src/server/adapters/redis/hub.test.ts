import { describe, expect, it } from "vitest";
import { isTetherError } from "../../../protocol/index.ts";
import { createMemoryRunStore } from "../../store/index.ts";
import { createRunHub } from "../../hub/index.ts";
import { createRedisHub } from "./hub.ts";

describe("createRedisHub", () => {
  it("refuses to start when Redis does not answer, naming the address and the variable to check", async () => {
    const store = createMemoryRunStore();
    const error = await createRedisHub({ local: createRunHub({ store }), store, url: "redis://:secret@127.0.0.1:1" }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!isTetherError(error)) throw new Error(`expected a TetherError, got ${String(error)}`);
    expect(error.code).toBe("store_unavailable");
    expect(error.message).toContain("127.0.0.1:1");
    expect(error.message).toContain("TETHER_REDIS_URL");
    expect(error.message).not.toContain("secret");
  });
});
