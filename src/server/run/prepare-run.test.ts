import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { createScriptedApp, openPanel } from "../../../test/helpers/scripted-app.ts";

const panelTool = toAgUiTool(openPanel);
const user = (id: string, content: string) => ({ id, role: "user" as const, content });
const promptText = (call: LanguageModelV3CallOptions) => JSON.stringify(call.prompt);

describe("preparing a run", () => {
  it("leaves off-list browser tools out under the drop policy, and the run's log says why", async () => {
    const app = await createScriptedApp([{ text: "Hi." }], { agent: { browserToolPolicy: "drop" } });
    const frames = await app.run({
      threadId: "t1",
      runId: "r1",
      messages: [user("u1", "hi")],
      tools: [panelTool, { name: "wipeDisk", description: "x", parameters: { type: "object" } }, { ...panelTool, name: "other", parameters: {} }],
    });
    expect(frames.at(-1)!.data.type).toBe("RUN_FINISHED");
    expect(app.model.calls[0]!.tools!.map((tool) => tool.name)).toEqual(["openPanel"]);
    const run = await app.store.getRun("r1");
    expect(run!.log).toEqual([
      expect.objectContaining({ level: "warn", code: "tool_dropped", details: { tool: "wipeDisk", reason: "tool_not_allowed" } }),
      expect.objectContaining({ level: "warn", code: "tool_dropped", details: { tool: "other", reason: "tool_not_allowed" } }),
    ]);
  });

  it("offers the model the frontend's description, with the allow-listed schema", async () => {
    const app = await createScriptedApp([{ text: "Hi." }]);
    await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "hi")], tools: [{ ...panelTool, description: "Mobile: opens one panel full-width." }] });
    expect(app.model.calls[0]!.tools).toEqual([
      { type: "function", name: "openPanel", description: "Mobile: opens one panel full-width.", inputSchema: openPanel.parameters },
    ]);
  });

  it("uses the request's history as sent in client mode", async () => {
    const app = await createScriptedApp([{ text: "One." }, { text: "Two." }], { agent: { history: "client" } });
    await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "first")] });
    const history = [user("u1", "first"), { id: "a-elsewhere", role: "assistant" as const, content: "An answer from another server." }, user("u2", "second")];
    const frames = await app.run({ threadId: "t1", runId: "r2", messages: history });
    expect(frames.at(-1)!.data.type).toBe("RUN_FINISHED");
    expect(promptText(app.model.calls[1]!)).toContain("An answer from another server.");
    expect(promptText(app.model.calls[1]!)).not.toContain("One.");
  });

  it("answers a retried browser outcome with the run that took it in, not a new turn of the model", async () => {
    const app = await createScriptedApp([{ toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] }, { text: "Billing is open." }]);
    const first = await app.run({
      threadId: "d",
      runId: "r1",
      messages: [{ id: "u", role: "user", content: "open billing" }],
      tools: [{ name: "openPanel", description: openPanel.description, parameters: openPanel.parameters }],
    });
    const callId = first.at(-1)!.data.outcome.pendingToolCallIds[0];
    const history = [
      ...(await app.store.getMessages("d")),
      { id: "t1", role: "tool" as const, toolCallId: callId, content: JSON.stringify({ status: "succeeded", stage: "displayed" }) },
    ];
    const second = await app.run({ threadId: "d", runId: "r2", messages: history });
    const retried = await app.post({ threadId: "d", runId: "r3", messages: history });
    expect(retried.headers.get("x-tether-repeat-of")).toBe("r2");
    expect(parseSseFrames(await retried.text())).toEqual(second);
    expect(app.model.calls).toHaveLength(2);
  });
});
