import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScriptedLlmStep } from "@tether-agent/tether/adk";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { userMessage } from "../fixtures/messages.ts";
import { callNamed, finished, resultOf, spoken } from "../helpers/run-events.ts";
import { createAdkApp, interruptsOf } from "./adk-app.ts";
import { approve, deleteFileTool, scriptedAgent, weatherTool } from "./fixtures.ts";
import { callsWithResponses } from "./model-requests.ts";

/**
 * A restart between an ADK confirmation and its answer: nothing of ADK outlives a step, so a new
 * process with a new agent answers it from the stored thread and interrupt alone. A converter that
 * keeps ADK's session in memory (ADK's own `InMemorySessionService`, as its samples do) has lost the
 * call it asked about, and the result ADK dropped beside it.
 */

/** The agent as a process builds it at start: new tools, new model, the same names. `ran` outlives the process, as the world does. */
function buildAgent(steps: ScriptedLlmStep[], ran: string[]) {
  return scriptedAgent(steps, [
    weatherTool({ onRun: (city) => ran.push(`get_weather(${city})`) }),
    deleteFileTool({ onRun: (path) => ran.push(`delete_file(${path})`), echoPayload: true }),
  ]);
}

describe("an ADK confirmation across a restart", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "tether-adk-restart-"));
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it("runs the held call once with the approval after a restart; the sibling's result is kept and the model hears every call answered", async () => {
    const filename = join(folder, "tether.db");
    const ran: string[] = [];

    const before = buildAgent(
      [
        {
          toolCalls: [
            { toolName: "get_weather", input: { city: "Paris" } },
            { toolName: "delete_file", input: { path: "/tmp/x" } },
          ],
        },
      ],
      ran,
    );
    const first = await createAdkApp(before.agent, { store: createSqliteRunStore({ filename }) });
    const run1 = await first.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "weather in Paris, delete /tmp/x")] });
    const [question] = interruptsOf(run1);
    const weather = callNamed(run1, "get_weather");
    expect(question!.toolCallId).toBe(callNamed(run1, "delete_file"));
    expect(ran).toEqual(["get_weather(Paris)"]);
    await first.tether.close();

    // A new process: a new app, a new LlmAgent and model, the same database file.
    const after = buildAgent([{ text: "Sunny in Paris, and /tmp/x is deleted." }], ran);
    // Its ids are new too: a restarted server never hands out an id the thread holds.
    const second = await createAdkApp(after.agent, { store: createSqliteRunStore({ filename }), idPrefix: "p2-" });
    try {
      const run2 = await second.run({ threadId: "t1", runId: "r2", resume: [approve(question!.id)] });

      expect(ran).toEqual(["get_weather(Paris)", "delete_file(/tmp/x)"]);
      expect(JSON.parse(resultOf(run2, question!.toolCallId)!)).toEqual({ deleted: "/tmp/x", payload: { approved: true } });
      expect(spoken(run2)).toBe("Sunny in Paris, and /tmp/x is deleted.");
      expect(finished(run2)).toEqual({ type: "success" });

      const stored = await second.store.getMessages("t1");
      const results = stored.flatMap((message) => (message.role === "tool" ? [[message.toolCallId, JSON.parse(String(message.content))]] : []));
      expect(results).toEqual([
        [weather, { city: "Paris", forecast: "sunny" }],
        [question!.toolCallId, { deleted: "/tmp/x", payload: { approved: true } }],
      ]);

      expect(after.model.requests).toHaveLength(1);
      expect(callsWithResponses(after.model.requests[0]!.contents)).toEqual([
        { name: "get_weather", args: { city: "Paris" }, response: { city: "Paris", forecast: "sunny" } },
        { name: "delete_file", args: { path: "/tmp/x" }, response: { deleted: "/tmp/x", payload: { approved: true } } },
      ]);
    } finally {
      await second.tether.close();
    }
  });
});
