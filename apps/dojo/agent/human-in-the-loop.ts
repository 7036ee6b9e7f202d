import type { Playbook, PlaybookResult, ScriptedTurn } from "@tether-agent/tether/server";
import { generateTaskSteps } from "./browser-tools.ts";

// The page's tool lives in browser-tools.ts (the /dojo/ pages bundle it); still exported here, beside its agent.
export { generateTaskSteps };

export const humanInTheLoop = {
  id: "human_in_the_loop",
  description: "Plans a task in steps; the person picks the steps to keep before anything is done.",
  instructions:
    'When asked to plan or do a task, call generate_task_steps with short imperative steps, each with status "enabled". ' +
    "The person may untick steps and confirm, or reject the plan: carry out only the steps the result lists, and if the result says accepted is false, do nothing and say so.",
  browserTools: [generateTaskSteps],
  welcome: { greeting: "How can I help you today?", suggestions: ["Please plan a trip to mars in 5 steps.", "Please plan a pasta dish in 10 steps."] },
};

/** Steps the offline model knows, by what the request mentions (the dojo's fixtures' tasks). */
const PLANS: Array<{ match: RegExp; steps: string[] }> = [
  { match: /brownie/i, steps: ["Crack eggs into bowl", "Preheat oven to 350F", "Mix and bake for 25 min"] },
  {
    match: /mars/i,
    steps: ["Start The Planning", "Build the rocket", "Train the crew", "Launch toward Mars", "Land and set up base", "Explore the surface", "Plan the return"],
  },
  {
    match: /pasta/i,
    steps: [
      "Boil salted water",
      "Cook the pasta",
      "Chop garlic",
      "Warm olive oil",
      "Fry the garlic",
      "Add tomatoes",
      "Simmer the sauce",
      "Drain the pasta",
      "Toss with sauce",
      "Serve with basil",
    ],
  },
];

interface Answer {
  accepted?: boolean;
  steps?: Array<{ description: string }>;
}

/** The offline model for human_in_the_loop: plans from a table, then does only what the person kept. */
export const humanInTheLoopPlaybook: Playbook = {
  name: "human_in_the_loop",
  respond(conversation) {
    const [latest] = conversation.results.slice(-1);
    if (latest?.toolName === "generate_task_steps") return afterAnswer(readAnswer(latest));
    const said = conversation.userText;
    if (/does the plan(?:ner)? include ([a-z ]+)/i.test(said)) return { text: includes(said, conversation.all) };
    if (!/plan|steps|how (?:do|to)|make|prepare/i.test(said)) {
      return { text: 'Ask me to plan something ("plan a trip to mars in 5 steps") and you choose which steps I carry out.' };
    }
    if (!conversation.tools.includes("generate_task_steps")) return { text: "This page can't show a plan for you to choose from." };
    const count = Number(/\b(\d{1,2})\s+steps?\b/i.exec(said)?.[1] ?? 0);
    const known = PLANS.find((plan) => plan.match.test(said))?.steps ?? ["Gather what you need", "Do the main work", "Check the result"];
    const steps = (count > 0 ? known.slice(0, count) : known).map((description) => ({ description, status: "enabled" }));
    return { toolCalls: [{ toolName: "generate_task_steps", input: { steps } }] };
  },
};

function readAnswer(result: PlaybookResult): Answer {
  const output = result.output as (Answer & { data?: Answer }) | undefined;
  return output?.data ?? output ?? {};
}

function afterAnswer(answer: Answer): ScriptedTurn {
  if (answer.accepted !== true) return { text: "Understood: you rejected the plan, so I haven't done any of it." };
  const kept = answer.steps ?? [];
  if (kept.length === 0) return { text: "You kept no steps, so there is nothing for me to do." };
  return {
    text: `Done! I carried out the ${kept.length} step${kept.length === 1 ? "" : "s"} you kept:\n${kept.map((s, i) => `${i + 1}. ${s.description}`).join("\n")}`,
  };
}

/** Whether the last confirmed plan kept a step mentioning `thing`. */
function includes(said: string, results: PlaybookResult[]): string {
  const thing = /does the plan(?:ner)? include ([a-z ]+)/i.exec(said)![1]!.trim();
  const last = results.filter((result) => result.toolName === "generate_task_steps").at(-1);
  if (!last) return "There is no plan yet.";
  const answer = readAnswer(last);
  if (answer.accepted !== true) return "No: the plan was rejected, so it includes nothing.";
  const found = (answer.steps ?? []).some((step) => step.description.toLowerCase().includes(thing.toLowerCase().replace(/s$/, "")));
  return found ? `Yes, the plan includes ${thing}.` : `No, the plan does not include ${thing}.`;
}
