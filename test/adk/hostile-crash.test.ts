import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import type { BaseEvent } from "@ag-ui/core";
import { FunctionTool } from "@google/adk";
import { createScriptedLlm, defineAdkAgent } from "@tether-agent/tether/adk";
import { createTetherApp, silentLogger } from "@tether-agent/tether/server";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { createCountingIds, parseSseFrames } from "@tether-agent/tether/testing";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { finished, spoken } from "../helpers/run-events.ts";
import { assistantAgent } from "./fixtures.ts";

/**
 * SIGKILL the process in the middle of an ADK step (its tool running), start again on the same SQLite
 * file, then retry the run and go on in the thread: the thread stays one a model accepts.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dataDir = mkdtempSync(join(tmpdir(), "tether-adk-crash-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const body = (runId: string, text: string) =>
  JSON.stringify({ threadId: "t1", runId, messages: [{ id: `${runId}-u`, role: "user", content: text }], tools: [], context: [], state: {} });

describe("an ADK step killed mid-tool", () => {
  it("leaves a thread the next instance ends, whose retry it refuses, and that goes on", { timeout: 90_000 }, async () => {
    const db = join(dataDir, "tether.db");
    const marker = join(dataDir, "marker.txt");
    const child = spawn(process.execPath, ["--conditions=tether-source", "--import", "tsx", join(ROOT, "test/adk/hostile-crash-process.ts")], {
      cwd: ROOT,
      env: { ...process.env, TETHER_TEST_DB: db, TETHER_TEST_MARKER: marker },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk;
        const match = /listening (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const first = fetch(`${url}/api/agents/adk/run`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-user": "kim" },
      body: body("r1", "write hello"),
    });
    for (let waited = 0; !existsSync(marker) && waited < 30_000; waited += 50) await sleep(50);
    expect(readFileSync(marker, "utf8")).toBe("hello\n");
    child.kill("SIGKILL");
    await exited;
    await first.then((response) => response.text()).catch(() => "");

    // The next instance: the same file, a tool that finishes.
    const ran: string[] = [];
    const slowWrite = new FunctionTool({
      name: "slow_write",
      description: "Writes, slowly.",
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => {
        ran.push(text);
        return { written: text };
      },
    });
    const model = createScriptedLlm([{ text: "Written." }, { toolCalls: [{ toolName: "slow_write", input: { text: "hello" } }] }, { text: "Written." }]);
    const tether = await createTetherApp({
      agents: [defineAdkAgent({ id: "adk", agent: assistantAgent(model, [slowWrite]) })],
      authenticate: () => ({ id: "kim" }),
      store: createSqliteRunStore({ filename: db }),
      logger: silentLogger,
      ids: createCountingIds("after-"),
    });
    try {
      const post = async (runId: string, text: string) => {
        const response = await tether.app.request("/api/agents/adk/run", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: body(runId, text),
        });
        const answer = await response.text();
        return { status: response.status, events: parseSseFrames(answer).map((frame) => frame.data as BaseEvent) };
      };
      // The killed run no longer holds the thread: the new instance ended it, and nothing of its step was kept.
      const thread = (await (await tether.app.request("/api/threads/t1")).json()) as { runs: Array<{ runId: string; status: string }>; messages: unknown[] };
      expect(thread.runs).toMatchObject([{ runId: "r1", status: "error", error: { code: "instance_lost" } }]);
      expect(thread.messages).toHaveLength(1);
      // The same request again is refused (run_exists): never a second ADK step of it.
      const retried = await post("r1", "write hello");
      expect(retried.status).toBe(409);
      expect(model.requests).toHaveLength(0);

      // Going on in the thread: the step that died left no call without a result for the model.
      const next = await post("r2", "are you there?");
      expect(next.status).toBe(200);
      expect(finished(next.events)).toEqual({ type: "success" });
      expect(spoken(next.events)).toBe("Written.");
      const contents = model.requests[0]!.contents;
      const calls = contents.flatMap((content) => (content.parts ?? []).filter((part) => part.functionCall));
      const responses = contents.flatMap((content) => (content.parts ?? []).filter((part) => part.functionResponse));
      expect(responses).toHaveLength(calls.length);

      // Asked again, the tool runs again: what ran before the kill is not known to have happened (documented).
      await post("r3", "write hello again");
      expect(ran).toEqual(["hello"]);
      expect(readFileSync(marker, "utf8")).toBe("hello\n");
    } finally {
      await tether.close();
    }
  });
});
