// The browser tool, declared once: the server allow-lists it (its name and the shape of its
// arguments, server.ts) and the page performs it (src/App.tsx).
import { defineBrowserTool } from "@tether-agent/tether/protocol";
import { z } from "zod";

export const openTask = defineBrowserTool({
  name: "openTask",
  kind: "follow-up", // the agent needs the outcome: the page sends it back and the agent speaks from it
  description: "Opens a task on the user's page. Say it is open only once the outcome says so.",
  parameters: z.object({ taskId: z.string().describe("A task id from findTasks, such as T-2.") }),
});
