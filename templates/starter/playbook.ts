// The offline model: a script that plays this app's one story (find a task, open it on the page,
// say what the page reported), so the app runs before a provider key is set, with no network.
// It is not a language model and answers only what it was written for.
import type { ToolOutcome } from "@tether-agent/tether/protocol";
import type { Playbook } from "@tether-agent/tether/server";
import type { Task } from "./tasks.ts";

/** Words of a request that name no task: "open the invoice task" looks for "invoice". */
const REQUEST_WORDS = /\b(open|show|find|the|a|an|my|me|task|tasks|please)\b/gi;

const HELP =
  "I am an offline script, not a language model: ask me to open a task, such as “open the invoice task”.";

export const playbook: Playbook = {
  name: "starter",
  respond({ userText, results, tools }) {
    const latest = results.at(-1);
    // The page reported what happened: speak from its outcome, never from the call.
    if (latest?.toolName === "openTask") {
      const outcome = latest.output as ToolOutcome;
      if (outcome.status === "succeeded") return { text: `Done. The page says: ${outcome.message}` };
      return {
        text: `The page could not open it (${outcome.reason ?? outcome.status}). ${outcome.message ?? ""}`,
      };
    }
    if (latest?.toolName === "findTasks") {
      const [task] = latest.output as Task[];
      const asked = (latest.input as { query: string }).query;
      if (!task) return { text: `No task has “${asked}” in its title. ${HELP}` };
      if (!tools.includes("openTask")) return { text: `That is ${task.id}, “${task.title}”.` };
      return {
        text: `Opening ${task.id}, “${task.title}”…`,
        toolCalls: [{ toolName: "openTask", input: { taskId: task.id } }],
      };
    }
    const query = userText
      .replace(REQUEST_WORDS, " ")
      .replace(/[^\p{L}\p{N}-]+/gu, " ")
      .trim();
    return query ? { toolCalls: [{ toolName: "findTasks", input: { query } }] } : { text: HELP };
  },
};
