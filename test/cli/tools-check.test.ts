import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { TETHER_COMMAND } from "../helpers/tether-command.ts";

let server: DemoServer;
const manifestDir = mkdtempSync(join(tmpdir(), "tether-manifest-"));
beforeAll(async () => {
  server = await startDemoServer();
});
afterAll(async () => {
  await server.close();
  rmSync(manifestDir, { recursive: true, force: true });
});

function writeManifest(name: string, content: unknown): string {
  const file = join(manifestDir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

/**
 * The real command in a child process. Asynchronously: the demo server runs in
 * this process, and spawnSync would block the event loop it answers on.
 */
async function tether(args: string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...TETHER_COMMAND, ...args], {
      encoding: "utf8",
      env: { ...process.env, TETHER_TOKEN: "", ...env },
    });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout: string; stderr: string };
    if (typeof failed.code !== "number") throw error;
    return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function check(manifest: string, ...extra: string[]) {
  return tether(["tools", "check", "--url", server.url, "--agent", "workdesk", "--manifest", manifest, ...extra]);
}

const asKim = () => ["--token", server.token("kim")];
const navigate = toAgUiTool(navigateToScreen);

describe("tether tools check", () => {
  it("exits 0 when the manifest declares navigateToScreen as the server defines it", async () => {
    const result = await check(writeManifest("same.json", [navigate]), ...asKim());
    expect(result).toMatchObject({ status: 0, stderr: "" });
    expect(result.stdout).toBe("1 tool matches agent workdesk's allow-list\n");
  });

  it("exits 0 when only a description differs, since a frontend may override descriptions", async () => {
    const result = await check(writeManifest("description.json", [{ ...navigate, description: "Opens a screen (mobile)." }]), ...asKim());
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("1 tool matches agent workdesk's allow-list");
  });

  it("exits 1 naming navigateToScreen and the schema difference when screenId is a number", async () => {
    const parameters = structuredClone(navigate.parameters);
    parameters.properties.screenId.type = "number";
    const result = await check(writeManifest("number.json", [{ ...navigate, parameters }]), ...asKim());
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^navigateToScreen: parameters differ from the server's$/m);
    expect(result.stdout).toContain('    properties.screenId.type: expected "string", got "number"');
  });

  it("exits 0 with a note when only a nested property description differs", async () => {
    const parameters = structuredClone(navigate.parameters);
    parameters.properties.screenId.description = "The screen to open; on mobile, only list screens.";
    const result = await check(writeManifest("nested-description.json", [{ ...navigate, parameters }]), ...asKim());
    expect(result).toMatchObject({ status: 0, stderr: "" });
    expect(result.stdout).toBe(
      "1 tool matches agent workdesk's allow-list\n" + "note: navigateToScreen: properties.screenId.description differs (the frontend's wording is used)\n",
    );
  });

  it("exits 1 naming the path of a changed nested type, and keeps a reworded description a note", async () => {
    const parameters = structuredClone(navigate.parameters);
    parameters.properties.screenName.type = "boolean";
    parameters.properties.screenId.description = "The screen to open.";
    const result = await check(writeManifest("nested-type.json", [{ ...navigate, parameters }]), ...asKim());
    expect(result.status).toBe(1);
    expect(result.stdout.split("\n")).toEqual([
      expect.stringMatching(/nested-type\.json drifts from agent workdesk's allow-list:$/),
      "navigateToScreen: parameters differ from the server's",
      '    properties.screenName.type: expected "string", got "boolean"',
      "note: navigateToScreen: properties.screenId.description differs (the frontend's wording is used)",
      "",
    ]);
  });

  it("exits 1 naming a tool that is not on the allow-list", async () => {
    const extra = { name: "deleteEverything", description: "Deletes everything.", parameters: { type: "object", properties: {} } };
    const result = await check(writeManifest("extra.json", [navigate, extra]), ...asKim());
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^deleteEverything: not on the server's allow-list$/m);
    expect(result.stdout).not.toMatch(/^navigateToScreen/m);
  });

  it("exits 1 saying navigateToScreen is required but missing from an empty manifest", async () => {
    const result = await check(writeManifest("empty.json", []), ...asKim());
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^navigateToScreen: required by the server, but/m);
  });

  it("exits 2 with agent_not_found for an unknown agent", async () => {
    const result = await tether([
      "tools",
      "check",
      "--url",
      server.url,
      "--agent",
      "nobody",
      "--manifest",
      writeManifest("for-nobody.json", [navigate]),
      ...asKim(),
    ]);
    expect(result).toMatchObject({ status: 2, stdout: "" });
    expect(result.stderr).toMatch(/agent_not_found: .*404.*There is no agent "nobody"/);
  });

  it("exits 2 with unauthenticated for a bad token, saying how to pass one", async () => {
    const result = await check(writeManifest("bad-token.json", [navigate]), "--token", "v1.forged.token");
    expect(result).toMatchObject({ status: 2, stdout: "" });
    expect(result.stderr).toMatch(/unauthenticated: .*401/);
    expect(result.stderr).toContain("--token");
  });

  it("takes the token from TETHER_TOKEN when there is no --token", async () => {
    const manifest = writeManifest("env-token.json", [navigate]);
    const result = await tether(["tools", "check", "--url", server.url, "--agent", "workdesk", "--manifest", manifest], { TETHER_TOKEN: server.token("kim") });
    expect(result.status).toBe(0);
  });

  it("exits 2 when the manifest file does not exist", async () => {
    const missing = join(manifestDir, "no-such-manifest.json");
    const result = await check(missing, ...asKim());
    expect(result).toMatchObject({ status: 2, stdout: "" });
    expect(result.stderr).toContain(`Cannot read the manifest ${missing}: there is no such file.`);
  });

  it("exits 2 when the manifest is not JSON", async () => {
    const result = await check(writeManifest("broken.json", "[{ name: navigateToScreen"), ...asKim());
    expect(result).toMatchObject({ status: 2, stdout: "" });
    expect(result.stderr).toMatch(/invalid_json: The manifest .*broken\.json is not JSON/);
  });

  it("exits 2 naming the entry that is not a tool", async () => {
    const result = await check(writeManifest("shape.json", [navigate, { name: "showRecipes" }]), ...asKim());
    expect(result).toMatchObject({ status: 2, stdout: "" });
    expect(result.stderr).toMatch(/invalid_input: Entry 1 \(showRecipes\) of .*shape\.json is not a tool .*description/);
  });

  it("exits 2 when the manifest is not an array", async () => {
    const result = await check(writeManifest("object.json", { tools: [navigate] }), ...asKim());
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("must be a JSON array of tools");
  });

  it("signs in with --demo-user kim without a --token, saying it is demo-only", async () => {
    const result = await check(writeManifest("demo-user.json", [navigate]), "--demo-user", "kim");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("1 tool matches agent workdesk's allow-list");
    expect(result.stderr).toContain("demo servers only");
  });
});
