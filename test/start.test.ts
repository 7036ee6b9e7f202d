import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dataDir = mkdtempSync(join(tmpdir(), "tether-start-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `npm start` exactly as a newcomer runs it, on a free port. */
function npmStart(env: Record<string, string>) {
  const child = spawn("npm", ["start"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", TETHER_DATA_DIR: dataDir, TETHER_MODEL: "", ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", () => {
      const match = /Tether demo running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  return { url, output: () => output, stop: () => process.kill(-child.pid!, "SIGTERM") };
}

describe("npm start", () => {
  it("serves the demo on the embedded defaults and prints its URL and each agent's model", async () => {
    const server = npmStart({});
    try {
      const url = await server.url;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(server.output()).toMatch(/agent workdesk: offline playbook model \(playbook:workdesk\)/);
      const { token } = await (await fetch(`${url}/api/demo/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user: "kim" }) })).json();
      const run = await fetch(`${url}/api/agents/workdesk/run`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ threadId: "start-1", runId: "start-1-r1", messages: [{ id: "u1", role: "user", content: "find badge reader requests" }], tools: [], context: [] }),
      });
      expect(await run.text()).toContain("Replace broken badge reader at Gate 3");
    } finally {
      server.stop();
    }
  });

  it.each([
    ["an unknown provider", { TETHER_MODEL: "skynet:t-800" }, /model_provider_unknown.*"skynet"/],
    ["a provider without its key", { TETHER_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "" }, /model_config_missing.*OPENAI_API_KEY/],
    ["a malformed model", { TETHER_MODEL: "openai-compatible:llama3" }, /config_invalid.*openai-compatible:<model>@/],
  ])("refuses to start on %s, saying which setting to fix", (_name, env, message) => {
    const result = spawnSync("npm", ["start"], { env: { ...process.env, PORT: "0", TETHER_DATA_DIR: dataDir, ...env }, encoding: "utf8", timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});
