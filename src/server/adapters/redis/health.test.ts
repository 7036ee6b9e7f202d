import { describe, expect, it } from "vitest";
import { watchRedisHealth } from "./health.ts";

describe("watchRedisHealth", () => {
  it("takes Redis for down from a failed call until a probe gets an answer, and says so once each way", async () => {
    let answers = false;
    const said: string[] = [];
    const health = watchRedisHealth({
      probe: async () => {
        if (!answers) throw new Error("Command timed out");
      },
      onDown: () => said.push("down"),
      onUp: () => said.push("up"),
      probeMs: 10,
    });
    try {
      expect(health.down).toBe(false);
      health.failed(new Error("Command timed out"));
      health.failed(new Error("Command timed out"));
      expect(health.down).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(health.down).toBe(true);
      answers = true;
      await expect.poll(() => health.down).toBe(false);
      expect(said).toEqual(["down", "up"]);
    } finally {
      health.close();
    }
  });

  it("ignores an error Redis answered with: it is up", () => {
    const health = watchRedisHealth({ probe: async () => "PONG" });
    const reply = Object.assign(new Error("ERR The ID specified in XADD is equal or smaller"), { name: "ReplyError" });
    health.failed(reply);
    expect(health.down).toBe(false);
    health.close();
  });
});
