import type { Server } from "node:http";
import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { stream } from "hono/streaming";
import { createStubModel } from "../stub-model.ts";
import { closeServer, listening, runInputBody, type Contender } from "./contender.ts";

/**
 * What a typical minimal AG-UI server does: Hono on @hono/node-server, read
 * the RunAgentInput, stream the model, turn each part into an AG-UI event,
 * `encodeSSE` it and write it to the response (hono/streaming, one write per
 * event). No validation beyond JSON, no auth, no store, no `id:` lines.
 */
export async function startMinimal(deltas: number, yieldEvery = 0): Promise<Contender> {
  const model = createStubModel(deltas, { yieldEvery });
  const app = new Hono();
  app.post("/run", async (c) => {
    const input = await c.req.json<RunAgentInput>();
    const encoder = new EventEncoder({ accept: c.req.header("accept") ?? "text/event-stream" });
    const { threadId, runId } = input;
    const messageId = `msg-${runId}`;
    const { stream: parts } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: "Stream as many tokens as you can." }] }],
      abortSignal: c.req.raw.signal,
    });
    c.header("Content-Type", encoder.getContentType());
    c.header("Cache-Control", "no-cache, no-transform");
    return stream(c, async (out) => {
      const send = (event: BaseEvent) => out.write(encoder.encodeSSE(event));
      await send({ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent);
      const reader = parts.getReader();
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        switch (part.type) {
          case "text-start":
            await send({ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" } as BaseEvent);
            break;
          case "text-delta":
            await send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: part.delta } as BaseEvent);
            break;
          case "text-end":
            await send({ type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent);
            break;
          default:
            break;
        }
      }
      await send({ type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: "success" } } as BaseEvent);
    });
  });
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }) as Server;
  const url = `http://127.0.0.1:${await listening(server)}/run`;
  return {
    name: "minimal",
    description: "Hono + @ag-ui/encoder, hono/streaming write per event, no store",
    request: () => ({ url, body: runInputBody().body }),
    close: () => closeServer(server),
  };
}
