// The Tether server: one agent with a server tool (findTasks) and a browser tool the page performs
// (openTask), its model, and who is asking. `npm run dev` runs it beside the page's dev server.
import { existsSync } from "node:fs";
import { openai } from "@ai-sdk/openai";
import { serveStatic } from "@hono/node-server/serve-static";
import { listen } from "@tether-agent/tether/node";
import { isTetherError } from "@tether-agent/tether/protocol";
import { createPlaybookModel, createTetherApp, defineAgent, defineTool } from "@tether-agent/tether/server";
import { z } from "zod";
import { playbook } from "./playbook.ts";
import { TASKS, tasksMatching } from "./tasks.ts";
import { openTask } from "./tools.ts";

// A real model once OPENAI_API_KEY is set (OPENAI_BASE_URL, when set, points the provider at another
// server); until then the offline script in playbook.ts plays the story.
const model = process.env.OPENAI_API_KEY
  ? openai.chat(process.env.OPENAI_MODEL ?? "gpt-4o-mini") // Chat Completions: what OpenAI-compatible servers speak too
  : createPlaybookModel(playbook);

// A server tool: runs here, with the signed-in user in its second argument.
const findTasks = defineTool({
  name: "findTasks",
  description: "Finds the user's tasks whose title holds every word of the query.",
  parameters: z.object({ query: z.string().describe("Words of the task's title, such as 'invoice'.") }),
  execute: ({ query }) => tasksMatching(query),
});

const assistant = defineAgent({
  id: "assistant",
  model,
  instructions:
    "You help people with their task list: find tasks with findTasks, and open one with openTask.",
  tools: [findTasks],
  browserTools: [openTask], // the allow-list: what the page may be asked to do, checked by name and shape
  welcome: {
    greeting: "I can find your tasks and open them on the page.",
    suggestions: ["Open the invoice task"],
  },
});

const NOT_BUILT = "The page is not built: run npm run build, then npm start (npm run dev while developing).";

const tether = await createTetherApp({
  agents: [assistant],
  // Your sign-in goes here: read the request's session cookie or token and return your user
  // (Tether needs its `id`), or undefined for a 401. Until then everyone is this one user.
  authenticate: () => ({ id: "you" }),
  dataDir: process.env.TETHER_DATA_DIR ?? "./data", // threads and runs, in SQLite: data/tether.db
}).catch((error: unknown) => {
  // Another server of this app has data/ (in another terminal?): one process at a time writes it.
  if (isTetherError(error) && error.code === "data_dir_in_use") return cannotStart(error.message);
  throw error;
});

// The app's own route beside Tether's API, behind the same sign-in: the page's task list.
tether.app.get("/api/tasks", tether.auth, (c) => c.json(TASKS));

// `npm start` (only) serves the page `npm run build` made, beside the API. Under `npm run dev` Vite
// serves the page, and a dist/ left from an earlier build would be a stale copy of it.
const servePage = process.argv.includes("--serve-page");
const pageBuilt = existsSync("dist/index.html");
if (servePage && pageBuilt) tether.app.use("*", serveStatic({ root: "./dist" }));
if (servePage && !pageBuilt) tether.app.get("/", (c) => c.text(NOT_BUILT, 503));

const port = Number(process.env.PORT ?? 8787);
const server = await listen(tether.app, { port, host: "127.0.0.1" }).catch((error: NodeJS.ErrnoException) => {
  if (error.code !== "EADDRINUSE") throw error;
  const again = process.env.npm_lifecycle_event === "start" ? "npm start" : "npm run dev";
  return cannotStart(
    `Port ${port} is in use (another server?): set PORT to another, as in PORT=${port + 1} ${again}.`,
  );
});
const modelName = process.env.OPENAI_API_KEY
  ? model.modelId
  : "the offline script (set OPENAI_API_KEY for a real model)";
console.log(`Tether is listening on ${server.url}, its model ${modelName}`);
console.log("Sign-in is a placeholder: everyone is the same user. Put yours in authenticate, in server.ts.");
if (servePage) console.log(pageBuilt ? `The page built in dist/ is at ${server.url}` : NOT_BUILT);

/** Says why the server cannot start, in one line, and exits. */
function cannotStart(reason: string): never {
  console.error(reason);
  // Under `npm run dev`, tsx watch (this process's parent) would wait for a change to restart, and
  // Vite would pass /api on to whatever holds the port: stop the watcher, so npm run dev stops too.
  if (process.env.npm_lifecycle_event === "dev") process.kill(process.ppid, "SIGTERM");
  process.exit(1);
}
