import { spawnSync } from "node:child_process";
import { EventType, HttpAgent, type BaseEvent } from "@ag-ui/client";
import { APICallError, type LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { describe, expect, it } from "vitest";
import { listen } from "@tether-agent/tether/node";
import { createScriptedApp, openPanel } from "./helpers/scripted-app.ts";
import { TETHER_COMMAND } from "./helpers/tether-command.ts";

const text = (...deltas: string[]): LanguageModelV3StreamPart[] => [
  { type: "text-start", id: "t" },
  ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
];
const upstreamReset = () =>
  new APICallError({ message: "upstream connection reset", url: "https://model.example/v1", requestBodyValues: {}, statusCode: 503, isRetryable: true });

/** An unmodified HttpAgent against the scripted app, with every event it verified. */
async function agentFor(app: Awaited<ReturnType<typeof createScriptedApp>>, threadId: string) {
  const server = await listen(app.tether.app, { port: 0, host: "127.0.0.1" });
  const agent = new HttpAgent({ url: `${server.url}/api/agents/test/run`, headers: { "x-user": "kim" }, threadId });
  const runAgent = async (parameters: Parameters<HttpAgent["runAgent"]>[0] = {}) => {
    const events: BaseEvent[] = [];
    await agent.runAgent({ tools: [toAgUiTool(openPanel)], ...parameters }, { onEvent: ({ event }) => void events.push(event) });
    return events;
  };
  return { agent, runAgent, close: () => server.close() };
}

describe("faults", () => {
  it("ends a run whose model stream breaks halfway with RUN_ERROR for that run, keeps the partial message, and the thread goes on", async () => {
    const app = await createScriptedApp([{ parts: text("Let me ", "check that"), throwAfter: upstreamReset() }, { text: "Hello again." }]);
    const { agent, runAgent, close } = await agentFor(app, "broken");
    try {
      agent.addMessage({ id: "u1", role: "user", content: "hello" });
      const first = await runAgent({ runId: "broken-r1" });
      const error = first.at(-1)!;
      expect(error).toMatchObject({ type: EventType.RUN_ERROR, code: "model_error", metadata: { tether: { runId: "broken-r1", threadId: "broken" } } });
      // Said in Tether's words: what the provider said stays with the operator.
      expect(error.message).toMatch(/HTTP 503/);
      expect(error.message).not.toContain("upstream connection reset");
      // The stored thread keeps what the user saw, and the run says how it ended.
      const stored = await app.store.getMessages("broken");
      expect(stored.at(-1)).toMatchObject({ role: "assistant", content: "Let me check that" });
      expect(await app.store.getRun("broken-r1")).toMatchObject({ status: "error", error: { code: "model_error" } });
      const log = await app.store.readEvents("broken-r1");
      expect(log.at(-1)!.event.type).toBe(EventType.RUN_ERROR);

      // The client's own history (with the partial message) is accepted and the next run works.
      agent.addMessage({ id: "u2", role: "user", content: "are you there?" });
      const second = await runAgent({ runId: "broken-r2" });
      expect(second.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "success" } });
      expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: "Hello again." });
      const prompt = JSON.stringify(app.model.calls[1]!.prompt);
      expect(prompt).toContain("Let me check that");
    } finally {
      await close();
    }
  });

  it("keeps a tool call cut off mid-arguments out of execution, and the thread goes on", async () => {
    const cutOff: LanguageModelV3StreamPart[] = [
      { type: "tool-input-start", id: "c1", toolName: "openPanel" },
      { type: "tool-input-delta", id: "c1", delta: '{"pan' },
    ];
    const app = await createScriptedApp([{ parts: cutOff, throwAfter: new Error("socket hang up") }, { text: "Back." }]);
    const { agent, runAgent, close } = await agentFor(app, "cut");
    try {
      agent.addMessage({ id: "u1", role: "user", content: "open the panel" });
      const first = await runAgent({ runId: "cut-r1" });
      expect(first.map((event) => event.type)).not.toContain(EventType.TOOL_CALL_END);
      expect(first.at(-1)).toMatchObject({ type: EventType.RUN_ERROR, code: "model_error" });
      expect(await app.store.getPendingToolCalls("cut")).toEqual([]);
      agent.addMessage({ id: "u2", role: "user", content: "again?" });
      const second = await runAgent({ runId: "cut-r2" });
      expect(second.at(-1)!.type).toBe(EventType.RUN_FINISHED);
    } finally {
      await close();
    }
  });

  it("refuses to start when the tool catalog names an executor nobody registered", () => {
    const result = spawnSync(process.execPath, [...TETHER_COMMAND, "serve", "test/fixtures/broken-catalog-app.ts", "--port", "0"], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("tool_executor_missing");
    expect(result.stderr).toContain('"closeEverything" (executor "workdesk.closeEverything")');
    expect(result.stdout).not.toContain("serving");
  });
});
