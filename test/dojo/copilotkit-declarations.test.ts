import { createTetherApp, silentLogger, type TetherUser } from "@tether-agent/tether/server";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { DOJO_FEATURES, createDojoAgents } from "../../apps/dojo/agent/index.ts";
import { COPILOTKIT_DECLARED_TOOLS } from "../fixtures/copilotkit-declared-tools.ts";

/**
 * Each feature agent takes its dojo page's browser tools as CopilotKit's frontend declares them: with no
 * length bounds (the pages' zod has none), without a description where the page gives none
 * (generate_haiku, confirm_changes), and with no parameters at all (confirm_changes). The allow-list
 * compares shape, so an agent whose spec adds a bound the page lacks refuses the page's every run.
 */
const tether = await createTetherApp<TetherUser>({
  agents: createDojoAgents({ playbook: { chunkDelayMs: 0 }, stepMs: 0 }),
  authenticate: (request) => (request.headers.get("x-user") ? { id: request.headers.get("x-user")! } : undefined),
  store: createMemoryRunStore(),
  logger: silentLogger,
});

describe("the dojo's feature agents and CopilotKit's declarations of the pages' tools", () => {
  it.each(DOJO_FEATURES)("%s runs with its page's tools as CopilotKit declares them", async (feature) => {
    const response = await tether.app.request(`/api/agents/${feature}/run?compat=ag-ui-0.0`, {
      method: "POST",
      headers: { "x-user": "dojo-visitor", "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({
        threadId: `declared_${feature}`,
        runId: `declared_${feature}_r1`,
        messages: [{ id: `declared_${feature}_u1`, role: "user", content: "Hi" }],
        tools: COPILOTKIT_DECLARED_TOOLS[feature],
        context: [],
        state: {},
        forwardedProps: {},
      }),
    });
    const body = await response.text();
    expect(body).not.toMatch(/tool_schema_mismatch|tool_not_allowed/);
    expect(response.status).toBe(200);
    const types = parseSseFrames(body).map((frame) => (frame.data as { type: string }).type);
    expect(types).not.toContain("RUN_ERROR");
    expect(types.at(-1)).toBe("RUN_FINISHED");
  });
});
