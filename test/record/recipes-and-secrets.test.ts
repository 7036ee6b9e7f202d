import type { Message } from "@ag-ui/core";
import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { SAM_DESKTOP, recipesAgent } from "../recipes/recipes-runs.ts";
import { recordClient, toolMessage, userMessage, type RecordClient } from "./record-client.ts";

/**
 * The Recipes story's stateless conversation (the client holds the history)
 * in its records, and secrets sent every way a client can send them, which no
 * record may hold.
 */

const PROVIDER_KEY = "sk-proj-ENVKEYENVKEYENVKEY0001";
const SECRETS = {
  cookie: "tether_session=COOKIESECRET0001",
  forwardedToken: "FWDTOKENSECRET0001",
  contextKey: "sk-ant-api03-CONTEXTKEYSECRET0001",
  googleKey: "AIzaSyGOOGLEKEYSECRET000000000000001",
  bearerInMessage: "MESSAGEBEARERSECRET0001",
};

let server: DemoServer;
let client: RecordClient;
beforeAll(async () => {
  server = await startDemoServer({ env: { OPENAI_API_KEY: PROVIDER_KEY, ANTHROPIC_API_KEY: PROVIDER_KEY } });
  client = recordClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
});

describe("run records of a stateless (client history) conversation", () => {
  it("record the history each run was sent, what it added, and the link to the run before", async () => {
    const threadId = "rec-recipes";
    const agent = recipesAgent(server.url, server.token("sam"), threadId);
    agent.addMessage(userMessage("rr-u1", "I have leftover rice"));
    await agent.runAgent({ runId: "rr-r1", tools: SAM_DESKTOP.tools });
    const offer = agent.messages
      .flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))
      .find((call) => call.function.name === "offer_recipes");
    expect(offer).toBeDefined();
    agent.addMessage(toolMessage("rr-t1", offer!.id, { status: "succeeded", stage: "displayed" }));
    agent.addMessage(userMessage("rr-u2", "something vegetarian instead"));
    const sent: Message[] = agent.messages.filter((message) => message.role !== "activity");
    await agent.runAgent({ runId: "rr-r2", tools: SAM_DESKTOP.tools, forwardedProps: { tether: { trigger: { kind: "user-message", parentRunId: "rr-r1" } } } });

    const { body: first } = await client.record("sam", "rr-r1");
    expect(first).toMatchObject({
      agentId: "recipes",
      complete: true,
      start: { trigger: { kind: "user-message", messageId: "rr-u1" }, nextRunIds: ["rr-r2"] },
    });
    expect(first.input.messages).toEqual([userMessage("rr-u1", "I have leftover rice")]);
    expect(
      first.input.tools
        .filter((tool) => tool.location === "browser")
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(SAM_DESKTOP.tools.map((tool) => tool.name).sort());
    expect(first.modelCalls.flatMap((call) => call.toolCalls)).toContainEqual(
      expect.objectContaining({ toolCallId: offer!.id, location: "browser", status: "pending" }),
    );

    const { body: second } = await client.record("sam", "rr-r2");
    expect(second.start).toEqual({ trigger: { kind: "user-message", messageId: "rr-u2" }, previousRunId: "rr-r1", nextRunIds: [] });
    expect((second.input.messages as Message[]).map((message) => message.id)).toEqual(sent.map((message) => message.id));
    expect(second.input.newMessageIds).toEqual(["rr-t1", "rr-u2"]);
    expect(second.modelCalls.length).toBeGreaterThan(0);
    expect(second.output.eventCount).toBeGreaterThan(2);

    const { body: chain } = await client.chain("sam", threadId);
    expect(chain.runs.map((run) => [run.runId, run.trigger.summary, run.previousRunId])).toEqual([
      ["rr-r1", "I have leftover rice", undefined],
      ["rr-r2", "something vegetarian instead", "rr-r1"],
    ]);
  });
});

describe("secrets in run records", () => {
  it("holds none of the secrets a client sent in headers, props, context and messages, nor a provider key from the environment", async () => {
    const threadId = "rec-secrets";
    const token = server.token("kim");
    await client.run(
      "kim",
      "workdesk",
      {
        threadId,
        runId: `${threadId}-r1`,
        messages: [userMessage(`${threadId}-u1`, `open the work request list, my header is Authorization: Bearer ${SECRETS.bearerInMessage}`)],
        context: [{ description: "keys", value: `anthropic ${SECRETS.contextKey} google ${SECRETS.googleKey}` }],
        forwardedProps: { apiToken: SECRETS.forwardedToken, nested: { password: SECRETS.forwardedToken, headers: { Cookie: SECRETS.cookie } } },
        state: { session: { accessToken: SECRETS.forwardedToken } },
      },
      { Cookie: SECRETS.cookie },
    );
    expect(
      await client.report("kim", `${threadId}-r1`, {
        kind: "renderer-error",
        message: `failed with Bearer ${SECRETS.bearerInMessage}`,
        details: { token: SECRETS.forwardedToken },
      }),
    ).toBe(202);

    const { body: record } = await client.record("kim", `${threadId}-r1`);
    const { body: chain } = await client.chain("kim", threadId);
    const everything = JSON.stringify(record) + JSON.stringify(chain);

    for (const secret of [...Object.values(SECRETS), PROVIDER_KEY, token]) expect(everything, secret).not.toContain(secret);
    // What was not secret is still there, and the secrets' places say so.
    expect(everything).toContain("open the work request list");
    expect((record.input.forwardedProps as { apiToken: string }).apiToken).toBe("[redacted]");
    expect(JSON.stringify((record as RunRecordDocument).reports)).toContain("[redacted]");
  });

  it("holds none of the secrets written the ways the hostile review found leaking: quoted, single-quoted, spaced, escaped JSON, a dict", async () => {
    const threadId = "rec-secret-forms";
    const secret = (n: number) => `FormSecret${n}x9Q`;
    await client.run("kim", "workdesk", {
      threadId,
      runId: `${threadId}-r1`,
      messages: [userMessage(`${threadId}-u1`, `open the work request list; my env is DB_PASSWORD="${secret(1)}" and API_KEY='${secret(2)}'`)],
      state: { config: `SECRET="${secret(3)}"`, dict: `{'password': '${secret(4)}'}` },
      forwardedProps: { note: `token: "${secret(5)}"`, escaped: `{\\"password\\":\\"${secret(6)}\\"}` },
      context: [{ description: "settings", value: `password = ${secret(7)}\nexport FOO_TOKEN=${secret(8)}` }],
    });

    const { body: record } = await client.record("kim", `${threadId}-r1`);
    const { body: chain } = await client.chain("kim", threadId);
    const everything = JSON.stringify(record) + JSON.stringify(chain);
    for (let n = 1; n <= 8; n++) expect(everything, secret(n)).not.toContain(secret(n));
    expect((record.input.state as { config: string }).config).toBe('SECRET="[redacted]"');
  });
});
