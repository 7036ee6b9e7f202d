/**
 * `tether tools check`: compares a frontend's manifest (a JSON array of AG-UI
 * `Tool` objects, the shape of `RunAgentInput.tools`) with an agent's
 * browser-tool allow-list, before a run refuses it.
 *
 * Descriptions, titles, examples and $comment may differ at any depth: they
 * are the frontend's wording, which the server accepts and the model reads, so
 * each is printed as a note, never as drift.
 *
 * Exit codes: 0 no drift (notes or not), 1 drift (report on stdout), 2 the
 * check could not be made (bad flags, unreadable manifest, server error;
 * reason on stderr).
 *
 * @example
 * tether tools check --url http://127.0.0.1:8787 --agent workdesk --manifest tools.json --token "$TETHER_TOKEN"
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import type { AgentCapabilities, Tool } from "@ag-ui/core";
import { ToolSchema } from "@ag-ui/core/schemas";
import { TetherError, isTetherError, isTetherErrorCode } from "../protocol/index.ts";
import { allowListOf, compareTools, formatDrift, formatNotes, hasDrift } from "../client/drift.ts";
import type { CommandOptions } from "./parse-flags.ts";

export const TOOLS_CHECK_USAGE = `  tether tools check --url <server> --agent <id> --manifest <file>
                     [--api /api] [--token <token> | --demo-user <user>]
      Compares a frontend's tool manifest (a JSON array of AG-UI Tool objects, as
      sent in RunAgentInput.tools) with the agent's browser-tool allow-list.
      The token comes from --token or TETHER_TOKEN; --demo-user signs in to the
      demo server (demo only). Descriptions, titles, examples and $comment may
      differ at any depth (the frontend's wording is used); each is printed as a
      note. Exits 0 when the schemas' shapes match, notes or not, 1 on drift with
      a report naming each drifted tool and path, 2 when the check could not be made.
`;

/** The options `tether tools check` takes (main refuses any other). */
export const TOOLS_CHECK_OPTIONS: CommandOptions = { values: ["url", "agent", "manifest", "api", "token", "demo-user"] };

/** Runs the check from command-line flags; returns the exit code. */
export async function toolsCheck(flags: Record<string, string>, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const url = requireFlag(flags, "url");
    const agentId = requireFlag(flags, "agent");
    const manifestPath = requireFlag(flags, "manifest");
    const api = apiBase(url, flags.api || "/api");
    // Read the manifest first: a typo in its path should not cost a round trip or a demo sign-in.
    const declared = await readManifest(manifestPath);
    const token = flags.token || (flags["demo-user"] ? await demoLogin(api, flags["demo-user"]) : env.TETHER_TOKEN);
    const capabilities = await getJson<AgentCapabilities>(`${api}/agents/${encodeURIComponent(agentId)}/capabilities`, token);
    const allowList = publishedAllowList(capabilities, url);
    const report = compareTools(declared, allowList);
    const notes = report.notes.length > 0 ? `${formatNotes(report)}\n` : "";
    if (hasDrift(report)) {
      process.stdout.write(`${manifestPath} drifts from agent ${agentId}'s allow-list:\n${formatDrift(report)}\n${notes}`);
      return 1;
    }
    process.stdout.write(`${declared.length} ${declared.length === 1 ? "tool matches" : "tools match"} agent ${agentId}'s allow-list\n${notes}`);
    return 0;
  } catch (error) {
    if (!isTetherError(error)) throw error; // a bug of ours: main prints the stack
    const serverCode = (error.details as { serverCode?: string } | undefined)?.serverCode;
    process.stderr.write(`tether tools check: ${serverCode ?? error.code}: ${error.message}\n`);
    return 2;
  }
}

function requireFlag(flags: Record<string, string>, name: string): string {
  const value = flags[name];
  if (!value) throw new TetherError("config_invalid", `Missing --${name}.\n\n${TOOLS_CHECK_USAGE}`);
  return value;
}

function apiBase(url: string, api: string): string {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new TetherError("config_invalid", `--url must be the server's base URL, like http://127.0.0.1:8787 (got "${url}").`);
  }
  const path = `/${api.replace(/^\/+|\/+$/g, "")}`;
  return `${base.origin}${base.pathname.replace(/\/+$/, "")}${path === "/" ? "" : path}`;
}

/** The manifest as AG-UI tools, or an error naming the first entry that is not one. */
export async function readManifest(path: string): Promise<Tool[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "there is no such file" : (error as Error).message;
    throw new TetherError("not_found", `Cannot read the manifest ${path}: ${reason}.`);
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new TetherError("invalid_json", `The manifest ${path} is not JSON (${(error as Error).message}).`);
  }
  if (!Array.isArray(manifest)) {
    throw new TetherError(
      "invalid_input",
      `The manifest ${path} must be a JSON array of tools ({ name, description, parameters? }), as sent in RunAgentInput.tools.`,
    );
  }
  const seen = new Set<string>();
  return manifest.map((entry, index) => {
    const parsed = ToolSchema.safeParse(entry);
    const label = `Entry ${index}${typeof entry?.name === "string" ? ` (${entry.name})` : ""} of ${path}`;
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(entry)"}: ${issue.message}`).join("; ");
      throw new TetherError("invalid_input", `${label} is not a tool { name, description, parameters? }: ${problems}.`);
    }
    const { parameters, name } = parsed.data;
    if (parameters !== undefined && (typeof parameters !== "object" || Array.isArray(parameters))) {
      throw new TetherError("invalid_input", `${label} has parameters that are not a JSON Schema object.`);
    }
    // The server refuses a run that declares a tool twice, so the manifest cannot be checked as it is.
    if (seen.has(name)) throw new TetherError("tool_duplicate", `${label} declares ${name} a second time.`);
    seen.add(name);
    return parsed.data as Tool;
  });
}

/** DEMO ONLY: signs in to the demo server as a listed user. */
async function demoLogin(api: string, user: string): Promise<string> {
  process.stderr.write(`tether tools check: signing in as demo user "${user}" (demo servers only).\n`);
  const body = await getJson<{ token?: unknown }>(`${api}/demo/login`, undefined, { method: "POST", body: JSON.stringify({ user }) });
  if (typeof body.token !== "string") throw new TetherError("config_invalid", `${api}/demo/login answered without a token; is this the demo server?`);
  return body.token;
}

async function getJson<T>(url: string, token: string | undefined, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { Accept: "application/json", "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new TetherError(
      "config_invalid",
      `Cannot reach ${url} (${cause?.code ?? cause?.message ?? (error as Error).message}). Is the server running, and is --url its base URL?`,
    );
  }
  const body = (await response.json().catch(() => undefined)) as { error?: { code?: unknown; message?: unknown } } | undefined;
  if (response.ok && body) return body as T;
  const serverError = body?.error;
  if (typeof serverError?.code === "string") {
    const hint = response.status === 401 ? " Pass --token, set TETHER_TOKEN, or use --demo-user on the demo server." : "";
    const code = isTetherErrorCode(serverError.code) ? serverError.code : "internal";
    throw new TetherError(code, `${url} answered ${response.status}: ${String(serverError.message ?? "")}${hint}`, {
      details: { serverCode: serverError.code },
    });
  }
  throw new TetherError("config_invalid", `${url} answered ${response.status} without a Tether JSON body; check --url and --api.`);
}

function publishedAllowList(capabilities: AgentCapabilities, url: string): Tool[] {
  // allowListOf reads a missing list as empty; here that would report every tool as drift from a server that is not Tether.
  if (!Array.isArray((capabilities.custom as { browserTools?: unknown } | undefined)?.browserTools)) {
    throw new TetherError("config_invalid", `${url} publishes no browser-tool allow-list (custom.browserTools in its capabilities); is it a Tether server?`);
  }
  return allowListOf(capabilities);
}
