import { keptText, readRunRecord } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { recordClient, userMessage, type RecordClient } from "./record-client.ts";

/**
 * A client that sends state and props shaped like the record's cut marker, to
 * make a reader show its head and hide the real value. The record lists the
 * cuts the server made (`cuts`), so the readers show the look-alike as the
 * data it is, and a real cut still as a cut.
 */

const FORGED = { cut: true, head: "attacker", length: 5, sha256: `sha256:${"0".repeat(64)}` };

let server: DemoServer;
let client: RecordClient;
beforeAll(async () => {
  server = await startDemoServer();
  client = recordClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
});

describe("a cut marker sent by a client", () => {
  it("reads as data in the record's readers, while the server's own cut still reads as a cut", async () => {
    const threadId = "rec-forged-cut";
    await client.run("kim", "workdesk", {
      threadId,
      runId: `${threadId}-r1`,
      messages: [userMessage(`${threadId}-u1`, "open the work request list")],
      // Over the 16 KiB a string may take: the server cuts that string inside the state it keeps.
      state: { ...FORGED, realValue: "the state the client really sent", long: "s".repeat(20_000) },
      forwardedProps: FORGED,
      // Over the 64 KiB a context may take: the server cuts it whole.
      context: Array.from({ length: 10 }, (_, index) => ({ description: `part ${index}`, value: "c".repeat(8_000) })),
    });

    const { body } = await client.record("kim", `${threadId}-r1`);
    expect(body.cuts).toEqual(expect.arrayContaining(["/input/state/long", "/input/context"]));
    expect(body.cuts).not.toContain("/input/state");
    expect(body.cuts).not.toContain("/input/forwardedProps");

    const record = readRunRecord(body);
    const state = keptText(record.input.state);
    expect(state.cut).toBeUndefined();
    expect(JSON.parse(state.text)).toMatchObject({ ...FORGED, realValue: "the state the client really sent", long: { cut: true, length: 20_000 } });
    expect(keptText(record.input.forwardedProps)).toEqual({ text: JSON.stringify(FORGED) });
    expect(keptText(record.input.context).cut).toMatchObject({ length: expect.any(Number), sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
  });
});
