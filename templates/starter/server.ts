// The Tether server: one agent with a server tool (findTasks) and a browser tool the page performs
// (openTask), its model, and who is asking. `npm run dev` runs it beside the page's dev server.
import { existsSync } from "node:fs";
import { openai } from "@ai-sdk/openai";
import { serveStatic } from "@hono/node-server/serve-static";
import { listen } from "@tether-agent/tether/node";
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

const tether = await createTetherApp({
  agents: [assistant],
  // Your sign-in goes here: read the request's session cookie or token and return your user
  // (Tether needs its `id`), or undefined for a 401. Until then everyone is this one user.
  authenticate: () => ({ id: "you" }),
  dataDir: "./data", // threads and runs, in SQLite: data/tether.db
});

// The app's own route beside Tether's API, behind the same sign-in: the page's task list.
tether.app.get("/api/tasks", tether.auth, (c) => c.json(TASKS));
// The page built by `npm run build`, served beside the API by `npm start` (in development Vite serves it).
if (existsSync("dist")) tether.app.use("*", serveStatic({ root: "./dist" }));

const server = await listen(tether.app, { port: Number(process.env.PORT ?? 8787), host: "127.0.0.1" });
const modelName = process.env.OPENAI_API_KEY
  ? model.modelId
  : "the offline script (set OPENAI_API_KEY for a real model)";
console.log(`Tether is listening on ${server.url}, its model ${modelName}`);
