import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import { turnParts } from "@tether-agent/tether/testing";
import type { ApiOptions } from "@tether-agent/tether/server";
import { describe, expect, it } from "vitest";
import { createScriptedApp, type ScriptedApp } from "./helpers/scripted-app.ts";

const MiB = 1024 * 1024;

type Record = RunRecordDocument;

/** An app with one finished run, r1, whose reply streamed as `deltas` text events of `deltaBytes` each. */
async function appWithRun(options: { deltas?: number; deltaBytes?: number; api?: ApiOptions } = {}): Promise<ScriptedApp> {
  const deltaBytes = options.deltaBytes ?? 12;
  const text = "x".repeat((options.deltas ?? 3) * deltaBytes);
  const app = await createScriptedApp([() => ({ parts: turnParts({ text }, { textChunk: deltaBytes }) })], options.api ? { api: options.api } : {});
  await app.run({ threadId: "t", runId: "r1", messages: [{ id: "u", role: "user", content: "hi" }] });
  await app.tether.runner.settled("r1");
  return app;
}

const postReport = async (app: ScriptedApp, body: unknown, runId = "r1"): Promise<Response> =>
  app.tether.app.request(`/api/runs/${runId}/reports`, {
    method: "POST",
    headers: { "x-user": "kim", "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const outcome = (toolCallId: string, data?: unknown) => ({
  kind: "tool-outcome",
  toolCallId,
  outcome: { status: "succeeded", ...(data === undefined ? {} : { data }) },
});
const rendererError = (message: string, details?: unknown) => ({ kind: "renderer-error", message, ...(details === undefined ? {} : { details }) });
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;
const reportCount = async (app: ScriptedApp) => (await app.store.listReports("r1")).length;

async function readRecord(app: ScriptedApp, query = ""): Promise<{ status: number; bytes: number; body: Record }> {
  const response = await app.tether.app.request(`/api/runs/r1/record${query}`, { headers: { "x-user": "kim" } });
  const text = await response.text();
  return { status: response.status, bytes: Buffer.byteLength(text), body: JSON.parse(text) as Record };
}

describe("browser reports", () => {
  it("refuses each of 40 reports of 1 MB with 413 report_too_large, and stores none", async () => {
    const app = await appWithRun();
    const huge = rendererError("broken", "x".repeat(1_000_000));

    for (let index = 0; index < 40; index++) {
      const response = await postReport(app, huge);
      expect(response.status).toBe(413);
      const error = await errorOf(response);
      expect(error.code).toBe("report_too_large");
      expect(error.message).toMatch(/at most 65536 bytes/);
    }
    expect(await reportCount(app)).toBe(0);
  });

  it("accepts a report just under 64 KiB and refuses one just over", async () => {
    const app = await appWithRun();
    const sized = (bytes: number) => {
      const shell = JSON.stringify(rendererError("broken", ""));
      return JSON.stringify(rendererError("broken", "x".repeat(bytes - Buffer.byteLength(shell))));
    };

    expect((await postReport(app, sized(64 * 1024))).status).toBe(202);
    const over = await postReport(app, sized(64 * 1024 + 1));

    expect(over.status).toBe(413);
    expect((await errorOf(over)).code).toBe("report_too_large");
    expect(await reportCount(app)).toBe(1);
  });

  it("refuses the 41st report of a run allowed 40 with 429 report_limit_exceeded, and keeps 40", async () => {
    const app = await appWithRun({ api: { reportLimits: { maxReportsPerRun: 40 } } });
    for (let index = 0; index < 40; index++) expect((await postReport(app, outcome(`call-${index}`))).status).toBe(202);

    const response = await postReport(app, outcome("call-40"));

    expect(response.status).toBe(429);
    const error = await errorOf(response);
    expect(error.code).toBe("report_limit_exceeded");
    expect(error.message).toMatch(/report on the next one/);
    expect(await reportCount(app)).toBe(40);
  });

  it("stops a run at 1 MiB of reports by default: 60 KiB reports fill 17 places, the 18th is refused", async () => {
    const app = await appWithRun();
    const report = rendererError("broken", "x".repeat(60 * 1024));
    for (let index = 0; index < 17; index++) expect((await postReport(app, report)).status).toBe(202);

    const response = await postReport(app, report);

    expect(response.status).toBe(429);
    expect((await errorOf(response)).code).toBe("report_limit_exceeded");
    expect(await reportCount(app)).toBe(17);
    expect(Buffer.byteLength(JSON.stringify((await app.store.listReports("r1")).map((entry) => entry.report)))).toBeLessThanOrEqual(MiB);
  });

  it("keeps exactly the limit when reports arrive all at once", async () => {
    const app = await appWithRun({ api: { reportLimits: { maxReportsPerRun: 40 } } });

    const statuses = await Promise.all(Array.from({ length: 60 }, (_, index) => postReport(app, outcome(`call-${index}`)).then((response) => response.status)));

    expect(statuses.filter((status) => status === 202)).toHaveLength(40);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect(await reportCount(app)).toBe(40);
  });

  it("counts one run's reports apart from another's", async () => {
    const app = await appWithRun({ api: { reportLimits: { maxReportsPerRun: 1 } } });
    await app.run({
      threadId: "t",
      runId: "r2",
      messages: [
        { id: "u", role: "user", content: "hi" },
        { id: "u2", role: "user", content: "again" },
      ],
    });

    expect((await postReport(app, outcome("a"), "r1")).status).toBe(202);
    expect((await postReport(app, outcome("b"), "r2")).status).toBe(202);
    expect((await postReport(app, outcome("c"), "r1")).status).toBe(429);
  });
});

describe("GET /runs/:runId/record", () => {
  it("answers a small run in one page: the record, every event and the reports, no next", async () => {
    const app = await appWithRun();
    await postReport(app, outcome("call-1"));

    const { status, body } = await readRecord(app);

    expect(status).toBe(200);
    expect(body.runId).toBe("r1");
    expect(body.output.events.map((stored) => stored.seq)).toEqual((await app.store.readEvents("r1")).map((stored) => stored.seq));
    expect(body.output.events.at(-1)!.type).toBe("RUN_FINISHED");
    expect(body.reports).toHaveLength(1);
    expect(body.output.next).toBeUndefined();
  });

  it("pages a run of 3 MiB of events: no page over 1 MiB plus the rest of the record, and following next walks every event once", async () => {
    const app = await appWithRun({ deltas: 3 * 1024, deltaBytes: 1024 });
    await postReport(app, outcome("call-1"));
    const stored = await app.store.readEvents("r1");
    expect(stored.length).toBeGreaterThan(3 * 1024);

    const seqs: number[] = [];
    let query = "";
    let pages = 0;
    for (;;) {
      const { status, bytes, body } = await readRecord(app, query);
      expect(status).toBe(200);
      // The rest of the record is capped too: the model call's 3 MiB of text is kept as its head and hash.
      expect(bytes).toBeLessThanOrEqual(MiB + 64 * 1024);
      expect(body.modelCalls[0]!.text).toMatchObject({ cut: true, length: 3 * MiB });
      seqs.push(...body.output.events.map((event) => event.seq));
      expect(body.reports).toHaveLength(1);
      pages += 1;
      if (!body.output.next) break;
      query = `?afterSeq=${body.output.next.afterSeq}`;
    }

    expect(pages).toBeGreaterThanOrEqual(3);
    expect(seqs).toEqual(stored.map((event) => event.seq));
  });

  it("gives at most `limit` events a page, and 1000 when asked for more", async () => {
    const app = await appWithRun({ deltas: 1500, deltaBytes: 4 });

    const ten = await readRecord(app, "?limit=10");
    const many = await readRecord(app, "?limit=5000");

    expect(ten.body.output.events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ten.body.output.next).toEqual({ afterSeq: 10 });
    expect(many.body.output.events).toHaveLength(1000);
    const rest = await readRecord(app, `?afterSeq=${many.body.output.next!.afterSeq}`);
    expect(rest.body.output.events[0]!.seq).toBe(1001);
  });

  it("keeps reports stored before the limits existed, 1 MB each, as their head, length and hash", async () => {
    const app = await appWithRun();
    // Written past the route, as a store filled by an older version would hold them.
    for (let index = 0; index < 6; index++) await app.store.addReport("r1", rendererError("broken", "x".repeat(1_000_000)));

    const { bytes, body } = await readRecord(app);

    expect(body.reports).toHaveLength(6);
    for (const report of body.reports) expect(report.body).toMatchObject({ kind: "renderer-error", details: { cut: true, length: 1_000_000 } });
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
  });

  it.each(["?afterSeq=-1", "?afterSeq=abc", "?limit=0", "?afterSeq=1.5"])("refuses %s with 400 invalid_input", async (query) => {
    const app = await appWithRun();

    const { status, body } = await readRecord(app, query);

    expect(status).toBe(400);
    expect((body as unknown as { error: { code: string; message: string } }).error.code).toBe("invalid_input");
    expect((body as unknown as { error: { code: string; message: string } }).error.message).toMatch(/whole number/);
  });
});
