import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { parseSseFrames, type SseFrame } from "@tether-agent/tether/testing";
import { afterAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { freePort, startServerProcess, tokenFor } from "../helpers/server-process.ts";
import { recordClient, userMessage } from "./record-client.ts";

/** A real server process killed with SIGKILL while the model streams: the run's record says it is incomplete, and keeps what was stored. */

const dataDir = mkdtempSync(join(tmpdir(), "tether-record-kill-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("a run whose server was killed mid-stream", () => {
  it("leaves a record marked incomplete, with its start, input, the model calls stored before the kill and the stored events", async () => {
    const port = await freePort();
    let server = await startServerProcess({ dataDir, port, chunkDelayMs: 10 });
    const frames: SseFrame[] = [];
    try {
      const response = await fetch(`${server.url}/api/agents/workdesk/run`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${tokenFor("kim")}` },
        body: JSON.stringify({
          threadId: "kill-rec",
          runId: "kill-rec-r1",
          messages: [userMessage("kill-rec-u1", "find badge reader requests")],
          tools: [toAgUiTool(navigateToScreen)],
          context: [],
          state: {},
          forwardedProps: {},
        }),
      });
      // Read until the second model call streams its text (the first, the search, is committed by then), then kill.
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      const streamingAfterResult = () =>
        frames.findIndex((frame) => frame.data.type === "TOOL_CALL_RESULT") !== -1 &&
        frames.slice(frames.findIndex((frame) => frame.data.type === "TOOL_CALL_RESULT")).some((frame) => frame.data.type === "TEXT_MESSAGE_CONTENT");
      while (!streamingAfterResult()) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        const cut = text.lastIndexOf("\n\n");
        if (cut === -1) continue;
        frames.push(...parseSseFrames(text.slice(0, cut + 2)));
        text = text.slice(cut + 2);
      }
      // Let a page of events reach the store (it writes every few milliseconds).
      await new Promise((resolve) => setTimeout(resolve, 60));
      await server.stop("SIGKILL");
      await reader.cancel().catch(() => {});
      expect(frames.some((frame) => /^RUN_(FINISHED|ERROR)$/.test(frame.data.type))).toBe(false);

      server = await startServerProcess({ dataDir, port, chunkDelayMs: 10 });
      const { status, body: record } = await recordClient(server.url, (user) => tokenFor(user)).record("kim", "kill-rec-r1");

      expect(status).toBe(200);
      expect(record).toMatchObject({ status: "error", complete: false, incomplete: { code: "instance_lost" }, error: { code: "instance_lost" } });
      expect(record.start.trigger).toEqual({ kind: "user-message", messageId: "kill-rec-u1" });
      expect(record.input.messages).toEqual([userMessage("kill-rec-u1", "find badge reader requests")]);
      expect(record.input.tools).toContainEqual({ name: "navigateToScreen", location: "browser", decision: "offered" });
      // The search ran and was committed before the kill; the call that was streaming left only its events.
      expect(record.modelCalls.length).toBeGreaterThanOrEqual(1);
      expect(record.modelCalls[0]!.toolCalls[0]).toMatchObject({ toolName: "searchWorkRequests", status: "result" });
      const seen = frames.map((frame) => Number(frame.id!.split(":")[1]));
      const stored = record.output.events.map((event) => event.seq);
      // What was stored before the kill is there, in order, from RUN_STARTED; the end the restart wrote comes after the gap.
      expect(record.output.events[0]!.type).toBe("RUN_STARTED");
      expect(stored.filter((seq) => seq <= seen.at(-1)!)).toEqual(seen.slice(0, stored.filter((seq) => seq <= seen.at(-1)!).length));
      expect(stored.filter((seq) => seq <= seen.at(-1)!).length).toBeGreaterThan(1);
      expect(record.output.events.at(-1)!.type).toBe("RUN_ERROR");
    } finally {
      await server.stop();
    }
  }, 60_000);
});
