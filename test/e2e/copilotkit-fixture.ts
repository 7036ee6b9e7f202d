import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { EventType, type Message } from "ag-ui-client-0.0";
import type { Page } from "playwright-core";
import { npm } from "../helpers/npm.ts";

/**
 * test/fixtures/copilotkit: CopilotKit's own runtime (runtime.mjs) and React frontend (a Vite page), from
 * the npm registry at the versions its lockfile pins. Shared by copilotkit.test.ts (the Workdesk agent) and
 * copilotkit-dojo.test.ts (the AG-UI dojo's feature agents).
 */
const FIXTURE = fileURLToPath(new URL("../fixtures/copilotkit", import.meta.url));

/** The fixture installed from its lockfile into a temporary folder outside the repo, its page built; returns the folder. */
export async function installCopilotKitFixture(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), "tether-copilotkit-"));
  cpSync(FIXTURE, work, { recursive: true, filter: (source) => !/[/\\](node_modules|dist)$/.test(source) });
  // From the lockfile, exactly the versions pinned; then the page, with the fixture's own Vite.
  await npm(work, ["ci", "--no-audit", "--no-fund", "--prefer-offline"]);
  await npm(work, ["run", "build"]);
  return work;
}

/** Removes the installed fixture. Over a thousand packages: this takes most of a minute on a slow disk. */
export function removeCopilotKitFixture(work: string | undefined): void {
  if (work) rmSync(work, { recursive: true, force: true });
}

/** A RunAgentInput as CopilotKit's runtime forwarded it to Tether. */
export interface ForwardedInput {
  threadId: string;
  runId: string;
  messages: Message[];
  tools: Array<{ name: string; description: string; parameters?: unknown }>;
  state?: unknown;
  context?: Array<{ description: string; value: string }>;
}

export interface CopilotKitRuntime {
  url: string;
  /** Every RunAgentInput one of the runtime's agents sent to Tether, in order (`tether` is the Workdesk's). */
  forwarded(agent?: string): ForwardedInput[];
  process: ChildProcess;
}

/** runtime.mjs from the installed fixture, signed in to Tether with one token; resolves once it prints its ready line. */
export function startCopilotKitRuntime(cwd: string, env: Record<string, string>): Promise<CopilotKitRuntime> {
  const log = join(cwd, `forwarded-${Math.random().toString(36).slice(2)}.jsonl`);
  const child = spawn(process.execPath, ["runtime.mjs"], {
    cwd,
    env: { ...process.env, PORT: "0", RUN_LOG: log, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const forwarded = (agent = "tether"): ForwardedInput[] =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { agent: string; input: ForwardedInput })
          .filter((line) => line.agent === agent)
          .map((line) => line.input)
      : [];
  let output = "";
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (\S+)/.exec(output);
      if (found) resolve({ url: found[1]!, process: child, forwarded });
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => reject(new Error(`runtime.mjs exited (${code}):\n${output}`)));
  });
}

/** A run the page asked CopilotKit's runtime for: its request body, and the SSE body the runtime answered with. */
export interface PageRun {
  request: string;
  response: Promise<string>;
}

/** Records, in order, every run request the page sends for `agent` and the runtime's answer to it. */
export function recordRuns(page: Page, agent: string): PageRun[] {
  const runs: PageRun[] = [];
  page.on("request", (request) => {
    if (!request.url().endsWith(`/agent/${agent}/run`)) return;
    runs.push({ request: request.postData() ?? "", response: request.response().then((response) => response?.text() ?? "") });
  });
  return runs;
}

/** The events of an SSE body, in order. */
export const eventsOf = (body: string) => parseSseFrames(body).map((frame) => frame.data as { type: string } & Record<string, unknown>);

/** The text an SSE body says, its TEXT_MESSAGE_CONTENT deltas joined (the runtime streams words in pieces). */
export const spoken = (body: string) =>
  eventsOf(body)
    .filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => event.delta)
    .join("");

/** Types a message into the page's CopilotKit chat and sends it. */
export async function ask(page: Page, text: string): Promise<void> {
  await page.getByTestId("copilot-chat-textarea").fill(text);
  await page.keyboard.press("Enter");
}
