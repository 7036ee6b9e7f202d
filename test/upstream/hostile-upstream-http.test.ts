import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { EventType } from "@ag-ui/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spoken } from "../helpers/run-events.ts";
import { ask, flood, lastEvent, navigateToScreen, startHostile, textEvents, upstreamRun, verified, type Hostile, type Scenario } from "./hostile-harness.ts";

/**
 * A hostile upstream at the HTTP level: answers that are failures gigabytes
 * long, redirects to hosts Tether was not told of, events with no end. Tether
 * reads what it needs and hangs up on the rest.
 */

const KEY = "sk-live-abcdefghijklmnopqrstuvwx";
const MB = 1024 * 1024;
let hostile: Hostile;
// A host Tether was not told of, where a redirect would take it (with the upstream's headers).
let elsewhere: Server;
const elsewhereAsked: IncomingMessage[] = [];
// How many bytes each flood wrote before Tether hung up.
const written = new Map<string, number>();
const redirect =
  (status: number, location: () => string): Scenario =>
  (response) =>
    void response.writeHead(status, { location: location() }).end();

beforeAll(async () => {
  elsewhere = createServer((request, response) => {
    elsewhereAsked.push(request);
    request.resume();
    void upstreamRun(...textEvents("m", "Hello from elsewhere."))(response, {} as never, request);
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
  const elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/agent`;
  // A port nobody listens on: one a server just let go of.
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
  const gonePort = (gone.address() as AddressInfo).port;
  await new Promise((resolve) => gone.close(resolve));
  hostile = await startHostile(
    {
      "huge 500": flood({
        status: 500,
        contentType: "text/plain",
        head: `Internal error near ${KEY}: `,
        piece: Buffer.alloc(64 * 1024, "x"),
        total: 64 * MB,
        written: (bytes) => written.set("500", bytes),
      }),
      "wrong token": (response) => void response.writeHead(401, { "content-type": "application/json" }).end('{"detail":"bad token"}'),
      "redirect away": redirect(307, () => elsewhereUrl),
      "redirect found": redirect(302, () => "/agent/moved"),
      "redirect here": (response, input, request) =>
        request.url === "/agent"
          ? redirect(307, () => "/agent/here")(response, input, request)
          : upstreamRun(...textEvents("m", "Answered at /agent/here."))(response, input, request),
      "redirect loop": redirect(308, () => "/agent/again"),
      "huge event": flood({
        head: 'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"',
        piece: Buffer.alloc(64 * 1024, "a"),
        total: 50 * MB,
        written: (bytes) => written.set("event", bytes),
      }),
      "endless line": flood({
        head: `data: ${JSON.stringify({ type: "RUN_STARTED", threadId: "t", runId: "r" })}\n\n: `,
        piece: Buffer.alloc(64 * 1024, "z"),
        total: 1024 * MB,
        written: (bytes) => written.set("line", bytes),
      }),
    },
    {},
    () => [{ id: "nowhere", upstream: { url: `http://127.0.0.1:${gonePort}/agent` }, browserTools: [navigateToScreen] }],
  );
});

afterAll(async () => {
  await hostile?.close();
  elsewhere?.closeAllConnections();
  await new Promise((resolve) => elsewhere?.close(resolve));
});

const ends = async (threadId: string, text: string, code: string, message: RegExp) => {
  const asked = await ask(hostile, threadId, text);
  expect(lastEvent(asked)).toMatchObject({ type: EventType.RUN_ERROR, code, message: expect.stringMatching(message) });
  await verified(asked.events);
  return asked;
};

describe("an upstream's HTTP answer", () => {
  it("reads a few KiB of a failure's body, not its 64 MB, and tells the client its start, redacted and cut", async () => {
    const asked = await ends("huge-500", "huge 500", "upstream_unavailable", /^The upstream agent answered HTTP 500: Internal error near \[redacted\]: x+…$/);
    expect(lastEvent(asked).message!.length).toBeLessThan(400);
    await expect.poll(() => written.get("500")).toBeLessThan(16 * MB);
  });

  it("never follows a redirect to another origin, where the upstream's headers would go", async () => {
    const asked = await ends("redirect-away", "redirect away", "upstream_error", /redirect \(HTTP 307\) to another origin/);
    expect(elsewhereAsked).toHaveLength(0);
    expect(lastEvent(asked).message).not.toContain(String((elsewhere.address() as AddressInfo).port));
  });

  it("refuses a 302 even within its origin: fetch would turn the POST into a GET", async () => {
    await ends("redirect-found", "redirect found", "upstream_error", /redirect \(HTTP 302\) within its origin/);
  });

  it("follows a 307 within the configured origin, with its POST", async () => {
    const asked = await ask(hostile, "redirect-here", "redirect here");
    expect(lastEvent(asked)).toMatchObject({ type: EventType.RUN_FINISHED });
    expect(spoken(asked.events)).toBe("Answered at /agent/here.");
  });

  it("stops following redirects within its origin after three", async () => {
    await ends("redirect-loop", "redirect loop", "upstream_error", /redirect \(HTTP 308\) within its origin; Tether follows only up to 3/);
  });

  it("takes a refusal (HTTP 4xx) for the upstream's error, which trying again will not change", async () => {
    await ends("wrong-token", "wrong token", "upstream_error", /^The upstream agent answered HTTP 401: \{"detail":"bad token"\}$/);
  });

  it("says an upstream that cannot be reached could not be, and why", async () => {
    const asked = await ask(hostile, "nowhere", "hello", "nowhere");
    expect(lastEvent(asked)).toMatchObject({
      type: EventType.RUN_ERROR,
      code: "upstream_unavailable",
      message: expect.stringMatching(/could not be reached: .*ECONNREFUSED/),
    });
  });
});

describe("an upstream's events with no end", () => {
  it("stops reading one 50 MB event at the event cap (4 MiB), passing none of it on", async () => {
    const asked = await ends("huge-event", "huge event", "upstream_error", /an event of more than 4194304 bytes \(its upstream\.limits\.maxEventBytes cap\)/);
    expect(spoken(asked.events)).toBe("");
    await expect.poll(() => written.get("event")).toBeLessThan(16 * MB);
  });

  it("stops reading a line that never ends at the same cap, and hangs up", async () => {
    await ends("endless-line", "endless line", "upstream_error", /an event of more than 4194304 bytes/);
    await expect.poll(() => written.get("line")).toBeLessThan(16 * MB);
  });
});
