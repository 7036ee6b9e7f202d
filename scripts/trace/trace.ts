import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isLibraryOrApp, type startCoverage } from "./coverage.ts";

/** What one Workdesk request executed, side by side: the library's and the apps' files, paths from the repo root. */
export interface RequestTrace {
  /** What the user typed, and the answer the agent gave (checked: a trace of a failed request would be no walk-through). */
  text: string;
  answer: string;
  server: string[];
  client: string[];
}

export const REQUEST = "open the work request list";
const ANSWER = "Work request list is open now.";

type ServerMessage = { type: "ready"; url: string; token: string } | { type: "begun" } | { type: "files"; files: string[] };

/**
 * Kim's "open the work request list", as the browser session sends it: the
 * session (src/client) runs in this process, the demo server in a child, each
 * under its own coverage. Both runs of the request are in the window (the
 * server's `lookupScreens`, the browser's `navigateToScreen` and its outcome,
 * the answer); start-up and the session's creation are not.
 */
export async function traceRequest(coverage: Awaited<ReturnType<typeof startCoverage>>): Promise<RequestTrace> {
  const child = fork(fileURLToPath(new URL("./server-process.ts", import.meta.url)), [], {
    execArgv: ["--conditions=tether-source", "--import=tsx"],
    // Its output (the demo's notes about pages not built) is shown only when the trace fails.
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const next = <T extends ServerMessage["type"]>(type: T) =>
    new Promise<Extract<ServerMessage, { type: T }>>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`The traced server exited (${code}) before it sent "${type}":\n${output}`));
      child.once("exit", onExit);
      child.once("message", (message: ServerMessage) => {
        child.off("exit", onExit);
        if (message.type === type) resolve(message as Extract<ServerMessage, { type: T }>);
        else reject(new Error(`The traced server sent "${message.type}", not "${type}".`));
      });
    });
  try {
    const { url, token } = await next("ready");
    const { createAgentSession } = await import("@tether-agent/tether/client");
    const { navigateToScreen } = await import("../../apps/workdesk/agent/index.ts");
    const session = createAgentSession({ api: `${url}/api`, agentId: "workdesk", threadId: "trace-1", headers: { Authorization: `Bearer ${token}` } });
    // The app's navigation needs a DOM; in Node the browser tool says what the app's would once the list is shown.
    session.registerTool({ spec: navigateToScreen, execute: () => ({ status: "succeeded", stage: "displayed", data: { route: "/work-requests" } }) });

    const begun = next("begun");
    child.send({ type: "begin" });
    await begun;
    await coverage.take();
    await session.send(REQUEST);
    const client = await coverage.take();
    // What the server still does for this request after the answer arrived (its last page, the run's end) is its too.
    await new Promise((settled) => setTimeout(settled, 300));
    const files = next("files");
    child.send({ type: "end" });
    const server = (await files).files;

    const answer = session
      .getState()
      .messages.filter((message) => message.role === "assistant" && message.content)
      .at(-1)?.content;
    if (answer !== ANSWER)
      throw new Error(`The traced request did not end as the story does: ${JSON.stringify(answer)}; ${JSON.stringify(session.getState().error)}`);
    return { text: REQUEST, answer, server: server.filter(isLibraryOrApp).sort(), client: client.filter(isLibraryOrApp).sort() };
  } finally {
    if (child.connected) child.send({ type: "close" });
    await new Promise((exited) => (child.exitCode === null ? child.once("exit", exited) : exited(undefined)));
  }
}
