import type { Playbook, PlaybookConversation, PlaybookResult } from "@tether-agent/tether/server";
import { describe, expect, it } from "vitest";
import { agenticChatPlaybook } from "./agentic-chat.ts";
import { agenticGenerativeUiPlaybook } from "./agentic-generative-ui.ts";
import { backendToolRenderingPlaybook } from "./backend-tool-rendering.ts";
import { humanInTheLoopPlaybook } from "./human-in-the-loop.ts";
import { predictiveStateUpdatesPlaybook } from "./predictive-state-updates.ts";
import { INITIAL_RECIPE, sharedStatePlaybook } from "./shared-state.ts";
import { toolBasedGenerativeUiPlaybook } from "./tool-based-generative-ui.ts";

/** A conversation as the playbook model reads it: the person's words so far, the tools offered, results since the model's last words. */
function talk(userTexts: string[], parts: Partial<PlaybookConversation> = {}): PlaybookConversation {
  return { userText: userTexts.at(-1) ?? "", userTexts, results: [], sinceUser: [], all: [], system: "", tools: [], offered: [], turnsSinceUser: 0, ...parts };
}
const result = (toolName: string, input: unknown, output: unknown): PlaybookResult => ({ toolCallId: "call_1", toolName, input, output, isError: false });
const after = (playbook: Playbook, said: string, latest: PlaybookResult, tools: string[] = []) =>
  playbook.respond(talk([said], { results: [latest], sinceUser: [latest], all: [latest], tools, turnsSinceUser: 1 }));

describe("the dojo features' offline playbooks", () => {
  it("agentic_chat remembers what the person said, and changes the background only through the page's tool", () => {
    const memory = talk(["my name is Alex", "what is the capital of France?", "What is my name?"]);
    expect(agenticChatPlaybook.respond(memory).text).toBe("Your name is Alex!");
    expect(agenticChatPlaybook.respond(talk(["Hi", "What was my first question?"])).text).toBe('Your first question was: "Hi"');
    expect(agenticChatPlaybook.respond(talk(["what is my name?"], { system: "Name of the user: Bob" })).text).toContain("Bob");
    const ask = talk(["Change the background color to blue"], { tools: ["change_background"] });
    expect(agenticChatPlaybook.respond(ask).toolCalls).toEqual([{ toolName: "change_background", input: { background: "blue" } }]);
    expect(agenticChatPlaybook.respond(talk(["Change the background color to blue"])).text).toMatch(/doesn't let me/);
    // Its own suggestion in words, sent to the page as the CSS the tool takes; the reply keeps the person's words.
    const gradient = agenticChatPlaybook.respond(talk(["Change the background to a blue gradient"], { tools: ["change_background"] })).toolCalls![0]!;
    expect(gradient.input).toEqual({ background: "linear-gradient(135deg, blue 0%, white 100%)" });
    const drawn = result("change_background", gradient.input, { status: "succeeded", message: "The background is now linear-gradient(…)." });
    expect(after(agenticChatPlaybook, "Change the background to a blue gradient", drawn).text).toBe("Done: the background is a blue gradient now.");
    // Only a result that says it worked is told as done; CopilotKit's page reports { status: "success" }, Tether's an outcome.
    const copilot = result("change_background", { background: "blue" }, { status: "success", message: "Background changed to blue" });
    expect(after(agenticChatPlaybook, "Change the background color to blue", copilot).text).toBe("Done: the background is blue now.");
    const failed = result("change_background", { background: "blue" }, { status: "failed", message: "The page refused it." });
    expect(after(agenticChatPlaybook, "Change the background color to blue", failed).text).toMatch(/couldn't confirm.*refused/);
  });

  it("backend_tool_rendering asks the server tool, and speaks from its result", () => {
    expect(backendToolRenderingPlaybook.respond(talk(["What's the weather like in San Francisco?"])).toolCalls).toEqual([
      { toolName: "get_weather", input: { location: "San Francisco" } },
    ]);
    const weather = result("get_weather", { location: "Tokyo" }, { city: "Tokyo", temperature: 9 });
    expect(after(backendToolRenderingPlaybook, "weather in Tokyo", weather).text).toBe("Here's the weather in Tokyo (demo figures).");
  });

  it("human_in_the_loop plans, then does only the steps the person kept", () => {
    const said = "Give me a plan to make brownies, there should be only one step with eggs and one step with oven";
    const plan = humanInTheLoopPlaybook.respond(talk([said], { tools: ["generate_task_steps"] })).toolCalls![0]!;
    expect(plan.toolName).toBe("generate_task_steps");
    expect((plan.input as { steps: Array<{ description: string; status: string }> }).steps.map((step) => step.description)).toEqual([
      "Crack eggs into bowl",
      "Preheat oven to 350F",
      "Mix and bake for 25 min",
    ]);
    const kept = result("generate_task_steps", plan.input, { accepted: true, steps: [{ description: "Preheat oven to 350F", status: "enabled" }] });
    expect(after(humanInTheLoopPlaybook, said, kept).text).toBe("Done! I carried out the 1 step you kept:\n1. Preheat oven to 350F");
    expect(humanInTheLoopPlaybook.respond(talk([said, "Does the planner include eggs?"], { all: [kept] })).text).toBe("No, the plan does not include eggs.");
    expect(after(humanInTheLoopPlaybook, said, result("generate_task_steps", plan.input, { accepted: false })).text).toMatch(/rejected/);
  });

  it("agentic_generative_ui hands its steps to the server tool, all pending", () => {
    const call = agenticGenerativeUiPlaybook.respond(talk(["Give me a plan to make brownies"])).toolCalls![0]!;
    expect(call.toolName).toBe("generate_task_steps_generative_ui");
    expect((call.input as { steps: Array<{ status: string }> }).steps.every((step) => step.status === "pending")).toBe(true);
  });

  it("tool_based_generative_ui draws the fixtures' haiku through the page's tool", () => {
    const call = toolBasedGenerativeUiPlaybook.respond(talk(['Generate Haiku for "I will always win"'], { tools: ["generate_haiku"] })).toolCalls![0]!;
    expect(call).toMatchObject({
      toolName: "generate_haiku",
      input: { english: ["On the path of victory", "I will always keep walking", "Destined to always win"] },
    });
  });

  it("shared_state reads the recipe from the state in its prompt, the person's edits included", () => {
    const edited = { recipe: { ...INITIAL_RECIPE, ingredients: [...INITIAL_RECIPE.ingredients, { icon: "🥔", name: "Potatoes", amount: "12" }] } };
    const system = `You help.\n\nShared state:\n${JSON.stringify(edited)}`;
    expect(sharedStatePlaybook.respond(talk(["Give me all the ingredients"], { system })).text).toContain("- Potatoes: 12");
    const pasta = sharedStatePlaybook.respond(
      talk(['Please give me a pasta recipe of your choosing, but one of the ingredients should be "Pasta"'], { system }),
    );
    expect(pasta.toolCalls![0]).toMatchObject({
      toolName: "generate_recipe",
      input: { recipe: { ingredients: expect.arrayContaining([expect.objectContaining({ name: "Salt" })]) } },
    });
  });

  it("predictive_state_updates writes the document, asks for confirmation, and renames from the document it is shown", () => {
    const write = predictiveStateUpdatesPlaybook.respond(talk(["Give me a story for a dragon called Atlantis in document"])).toolCalls![0]!;
    expect(write.toolName).toBe("write_document_local");
    const document = (write.input as { document: string }).document;
    expect(document).toContain("Atlantis");
    const written = result("write_document_local", write.input, { written: true });
    expect(after(predictiveStateUpdatesPlaybook, "story", written, ["confirm_changes"]).toolCalls).toEqual([{ toolName: "confirm_changes", input: {} }]);
    expect(after(predictiveStateUpdatesPlaybook, "story", result("confirm_changes", {}, { accepted: false })).text).toMatch(/not kept/);
    const system = `Shared state:\n${JSON.stringify({ document })}`;
    const renamed = predictiveStateUpdatesPlaybook.respond(talk(["Change dragon name to Lola"], { system })).toolCalls![0]!;
    expect((renamed.input as { document: string }).document).toContain("called Lola");
    expect((renamed.input as { document: string }).document).not.toContain("Atlantis");
  });
});
