import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { EventType } from "@ag-ui/core";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";

/**
 * An upstream whose connection is cut mid-stream: its process died, or a
 * proxy between reset it. @ag-ui/client 1.0.0's request reader rethrows the
 * stream's error when it tidies up after it (`reader.cancel()`), where nobody
 * catches it; in a Node server that unhandled rejection stops the process.
 */

const frame = (event: object) => `data: ${JSON.stringify(event)}\n\n`;
let server: Server;
let tether: TetherApp;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(frame({ type: "RUN_STARTED", threadId: "t", runId: "r" }));
    response.write(frame({ type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" }));
    response.write(frame({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "Half a sen" }));
    // The socket goes, as when the process behind it is killed: no end of the chunked body.
    setTimeout(() => response.socket?.destroy(), 50);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  tether = await createTetherApp({
    agents: [defineAgent({ id: "cut", upstream: { url }, browserTools: [navigateToScreen] })],
    authenticate: () => ({ id: "kim" }),
    store: createMemoryRunStore(),
    logger: silentLogger,
  });
});

afterAll(async () => {
  await tether?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe("an upstream whose stream is cut mid-run", () => {
  it("ends the run with upstream_error and leaves no unhandled rejection behind", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const response = await tether.app.request("/api/agents/cut/run", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify({
          threadId: "cut-1",
          runId: "cut-1-r1",
          messages: [{ id: "cut-1-u1", role: "user", content: "hello" }],
          tools: [toAgUiTool(navigateToScreen)],
          context: [],
          state: {},
          forwardedProps: {},
        }),
      });
      const events = parseSseFrames(await response.text()).map((frame) => frame.data);
      expect(events.at(-1)).toMatchObject({
        type: EventType.RUN_ERROR,
        code: "upstream_error",
        message: expect.stringMatching(/^The upstream agent broke off its stream/),
      });
      // Rejections nobody handled are reported after the microtasks and a turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
