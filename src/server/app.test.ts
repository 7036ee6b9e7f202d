import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, type Logger } from "@tether-agent/tether/server";
import { createScriptedModel } from "@tether-agent/tether/testing";
import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * Several instances sign with one secret or refuse each other's signatures:
 * an approval of a stateless agent asked on one, answered on another (and the
 * demo's sign-ins). An instance on a shared store that would pick a random
 * secret says so as it starts.
 */

function recordingLogger() {
  const warnings: string[] = [];
  const logger: Logger = { info() {}, warn: (message) => void warnings.push(message), error() {} };
  return { logger, warnings };
}

async function start(options: { shared: boolean; secret?: string }) {
  const { logger, warnings } = recordingLogger();
  const memory = createMemoryRunStore();
  // A store several instances share has the sweep of instances that stopped; one of a single process does not.
  const store = options.shared ? { ...memory, endRunsOfLostInstances: async () => 0 } : memory;
  const tether = await createTetherApp({
    agents: [defineAgent({ id: "test", model: createScriptedModel([{ text: "hi" }]), tools: [], browserTools: [] })],
    authenticate: () => ({ id: "kim" }),
    store,
    redisUrl: "",
    logger,
    ...(options.secret ? { secret: options.secret } : {}),
  });
  await tether.close();
  return warnings;
}

describe("the signing secret of several instances", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("warns at start, naming TETHER_SECRET, when an instance on a shared store has no secret", async () => {
    vi.stubEnv("TETHER_SECRET", "");
    const warnings = await start({ shared: true });
    expect(warnings.join("\n")).toMatch(/TETHER_SECRET/);
  });

  it("says nothing when a secret is set, or when one process has the store to itself", async () => {
    vi.stubEnv("TETHER_SECRET", "");
    expect(await start({ shared: true, secret: "s" })).toEqual([]);
    expect(await start({ shared: false })).toEqual([]);
    vi.stubEnv("TETHER_SECRET", "from-env");
    expect(await start({ shared: true })).toEqual([]);
  });
});
