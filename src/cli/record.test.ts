import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRecordDocument } from "../protocol/index.ts";
import { eventsOf, recordOf } from "../../test/fixtures/run-records.ts";
import { fetchRecord } from "./record.ts";

// TEST DATA served by a stand-in: the real server's pages are as long as it likes (1000 events),
// so paging is checked here with three small pages; test/cli/record.test.ts reads the real server.
const pages: Record<string, RunRecordDocument> = {
  "": recordOf({
    runId: "run-paged",
    output: { eventCount: 5, lastSeq: 5, events: eventsOf(["RUN_STARTED", "TEXT_MESSAGE_START"]), surfaces: [], next: { afterSeq: 2 } },
  }),
  "afterSeq=2": recordOf({
    runId: "run-paged",
    output: { eventCount: 5, lastSeq: 5, events: eventsOf(["TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"], 3), surfaces: [], next: { afterSeq: 4 } },
  }),
  "afterSeq=4": recordOf({ runId: "run-paged", output: { eventCount: 5, lastSeq: 5, events: eventsOf(["RUN_FINISHED"], 5), surfaces: [] } }),
};
let server: Server;
let api: string;
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    asked.push(`${url.pathname}${url.search} ${request.headers.authorization ?? ""}`);
    const page = pages[url.search.slice(1)];
    response.writeHead(page ? 200 : 404, { "Content-Type": "application/json" });
    response.end(JSON.stringify(page ?? { error: { code: "not_found", message: "no such page" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("fetchRecord", () => {
  it("follows output.next until the last page and returns one record with every event, in order", async () => {
    asked.length = 0;
    const record = await fetchRecord({ api, runId: "run-paged", token: "t0ken" }, true);
    expect(record.output.events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(record.output.next).toBeUndefined();
    expect(asked).toEqual([
      "/api/runs/run-paged/record Bearer t0ken",
      "/api/runs/run-paged/record?afterSeq=2 Bearer t0ken",
      "/api/runs/run-paged/record?afterSeq=4 Bearer t0ken",
    ]);
  });

  it("reads only the first page for the timeline, which says more events exist", async () => {
    const record = await fetchRecord({ api, runId: "run-paged", token: undefined }, false);
    expect(record.output.events).toHaveLength(2);
    expect(record.output.next).toEqual({ afterSeq: 2 });
  });
});
