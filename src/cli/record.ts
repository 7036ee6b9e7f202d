/**
 * `tether record <runId>`: a run's timeline in the terminal, read from the
 * server's `GET /runs/:runId/record` with a token.
 *
 * Exit codes: 0 printed, 1 the server refused or has no such run (reason on
 * stderr, with the server's code), 2 the command could not ask (bad flags, the
 * server not reachable).
 *
 * @example
 * TETHER_TOKEN=... npx tether record 6f1c… --api http://127.0.0.1:8787/api
 *
 * @module
 */
import { TetherError, cutPointers, isTetherError, readRunRecord, type RunRecordDocument } from "../protocol/index.ts";
import type { CommandOptions } from "./parse-flags.ts";
import { formatRecordTimeline } from "./record-timeline.ts";

export const RECORD_USAGE = `  tether record <runId> [--api <url>] [--token <token>] [--json]
      Prints a run's timeline: what started it, the model calls, tool calls and
      where they ran, approvals, surfaces, the browser's reports, the events sent.
      --api is the server's API base (default TETHER_API, else
      http://127.0.0.1:8787/api); the token comes from --token or TETHER_TOKEN and
      is sent as a Bearer token. --json prints the record as the server keeps it,
      every page of events fetched. Exits 1 when the server refuses (no token,
      no such run or not yours), 2 when it cannot be asked.
`;

export const DEFAULT_API = "http://127.0.0.1:8787/api";

/** The options `tether record` takes (main refuses any other). */
export const RECORD_OPTIONS: CommandOptions = { values: ["api", "token"], switches: ["json"] };

interface RecordCommand {
  runId: string;
  api: string;
  token: string | undefined;
  json: boolean;
}

/** Runs `tether record`; returns the exit code. */
export async function recordCommand(
  positional: string[],
  flags: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
  out: (text: string) => void = (text) => process.stdout.write(text),
  err: (text: string) => void = (text) => process.stderr.write(text),
): Promise<number> {
  let command: RecordCommand;
  try {
    command = readCommand(positional, flags, env);
  } catch (error) {
    if (!isTetherError(error)) throw error;
    err(`tether record: ${error.code}: ${error.message}\n`);
    return 2;
  }
  try {
    const record = await fetchRecord(command, command.json);
    if (command.json) {
      out(`${JSON.stringify(record, null, 2)}\n`);
      return 0;
    }
    // The answers to this run's approvals are in its next runs' triggers; a next run we may not read just goes without.
    const nextRecords = await Promise.all(record.start.nextRunIds.map((runId) => fetchRecord({ ...command, runId }, false).catch(() => undefined)));
    out(formatRecordTimeline(record, { nextRecords: nextRecords.filter((next): next is RunRecordDocument => next !== undefined) }));
    return 0;
  } catch (error) {
    if (!isTetherError(error)) throw error; // a bug of ours: main prints the stack
    const serverCode = (error.details as { serverCode?: string } | undefined)?.serverCode;
    err(`tether record: ${serverCode ?? error.code}: ${error.message}\n`);
    return error.code === "config_invalid" ? 2 : 1;
  }
}

function readCommand(positional: string[], flags: Record<string, string>, env: NodeJS.ProcessEnv): RecordCommand {
  const [runId, extra] = positional;
  if (!runId) throw new TetherError("config_invalid", `Name the run: tether record <runId>.\n\n${RECORD_USAGE}`);
  if (extra !== undefined) throw new TetherError("config_invalid", `One run at a time (got "${runId}" and "${extra}").\n\n${RECORD_USAGE}`);
  // Given without a value, the environment's would be used in silence: another server, or another person's token.
  for (const name of ["api", "token"]) {
    if (flags[name] === "") throw new TetherError("config_invalid", `--${name} needs a value.\n\n${RECORD_USAGE}`);
  }
  const api = (flags.api || env.TETHER_API || DEFAULT_API).replace(/\/+$/, "");
  try {
    new URL(api);
  } catch {
    throw new TetherError("config_invalid", `--api must be the server's API base URL, like ${DEFAULT_API} (got "${api}").`);
  }
  return {
    runId,
    api,
    token: flags.token || env.TETHER_TOKEN || undefined,
    json: "json" in flags,
  };
}

/** The run's record; with `allPages`, every page of its events (and reports) in one document. */
export async function fetchRecord(command: Pick<RecordCommand, "api" | "runId" | "token">, allPages: boolean): Promise<RunRecordDocument> {
  const url = `${command.api}/runs/${encodeURIComponent(command.runId)}/record`;
  const record = readRunRecord(await getJson(url, command));
  if (!allPages) return record;
  const seenReports = new Set(record.reports.map((report) => JSON.stringify(report)));
  let next = record.output.next as Record<string, unknown> | undefined;
  // A server that answered the same cursor twice would loop forever; stop when a page does not move forward.
  let lastSeq = -1;
  while (next && Number(next.afterSeq) > lastSeq) {
    lastSeq = Number(next.afterSeq);
    const query = new URLSearchParams(Object.entries(next).map(([key, value]) => [key, String(value)]));
    const page = readRunRecord(await getJson(`${url}?${query}`, command));
    record.output.events.push(...page.output.events);
    // Reports may come again on every page, or only on the last: keep each once.
    for (const report of page.reports) {
      const key = JSON.stringify(report);
      if (!seenReports.has(key)) record.reports.push(report);
      seenReports.add(key);
    }
    next = page.output.next as Record<string, unknown> | undefined;
  }
  delete record.output.next;
  // The pages' cuts, where they now sit in the one document.
  record.cuts = cutPointers(record);
  return record;
}

async function getJson(url: string, command: Pick<RecordCommand, "api" | "runId" | "token">): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json", ...(command.token ? { Authorization: `Bearer ${command.token}` } : {}) } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new TetherError(
      "config_invalid",
      `The server isn't reachable at ${command.api} (${cause?.code ?? cause?.message ?? (error as Error).message}). Is it running? Pass its API base with --api or TETHER_API.`,
    );
  }
  const body = (await response.json().catch(() => undefined)) as { error?: { code?: unknown; message?: unknown } } | undefined;
  if (response.ok && body) return body;
  const serverCode = typeof body?.error?.code === "string" ? body.error.code : undefined;
  const serverMessage = typeof body?.error?.message === "string" ? ` (${body.error.message})` : "";
  if (response.status === 401) {
    throw new TetherError(
      "unauthenticated",
      command.token
        ? `The server refused the token${serverMessage}: it is wrong or expired. Pass a valid one with --token or TETHER_TOKEN.`
        : `The server needs a token to read run records. Pass --token <token> or set TETHER_TOKEN.`,
      { details: { serverCode: serverCode ?? "unauthenticated" } },
    );
  }
  if (response.status === 403 || response.status === 404) {
    throw new TetherError(
      "run_not_found",
      serverCode === "run_not_found" || serverCode === "forbidden" || response.status === 403
        ? `No run ${command.runId} (or it is not yours) at ${command.api}.`
        : `${url} answered 404${serverMessage}: no run ${command.runId} there, or this server has no run records (check --api).`,
      { details: { serverCode: serverCode ?? "not_found" } },
    );
  }
  if (serverCode) throw new TetherError("internal", `${url} answered ${response.status}: ${serverCode}${serverMessage}.`, { details: { serverCode } });
  throw new TetherError("config_invalid", `${url} answered ${response.status} without a Tether JSON body; check --api.`);
}
