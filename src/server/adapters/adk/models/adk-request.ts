import type { LlmRequest, LlmResponse } from "@google/adk";

// ADK's content types come from @google/genai, which is ADK's dependency and not ours: derived here from ADK's exports.
/** One turn of the conversation as ADK holds it (`role` "user" or "model", and its parts). */
export type AdkContent = NonNullable<LlmResponse["content"]>;
/** One part of a content: text, a function call, a function response… */
export type AdkPart = NonNullable<AdkContent["parts"]>[number];
/** The token counts a response reports. */
export type AdkUsage = NonNullable<LlmResponse["usageMetadata"]>;

type GenerateContentConfig = NonNullable<LlmRequest["config"]>;
type SystemInstruction = NonNullable<GenerateContentConfig["systemInstruction"]>;

/** A function the request offers the model, as ADK declared it. */
export interface DeclaredFunction {
  name: string;
  description: string;
  /** `parametersJsonSchema` when the tool gave one (a browser tool's JSON Schema), else ADK's `parameters` Schema. */
  inputSchema: unknown;
}

/** The functions offered in `config.tools[].functionDeclarations`, in order. */
export function declaredFunctions(request: LlmRequest): DeclaredFunction[] {
  return (request.config?.tools ?? []).flatMap((tool) =>
    "functionDeclarations" in tool
      ? (tool.functionDeclarations ?? []).map((declaration) => ({
          name: declaration.name ?? "",
          description: declaration.description ?? "",
          inputSchema: declaration.parametersJsonSchema ?? declaration.parameters,
        }))
      : [],
  );
}

/**
 * The system instruction as text. ADK writes a string (`appendInstructions`),
 * but the field takes a Content, a Part or a list of either.
 */
export function systemText(request: LlmRequest): string {
  const instruction = request.config?.systemInstruction;
  return instruction === undefined ? "" : instructionText(instruction);
}

function instructionText(instruction: SystemInstruction): string {
  if (typeof instruction === "string") return instruction;
  if (Array.isArray(instruction)) return instruction.map((part) => (typeof part === "string" ? part : (part.text ?? ""))).join("\n");
  if ("parts" in instruction) return textOf(instruction);
  return "text" in instruction ? (instruction.text ?? "") : "";
}

/** The text parts of a content, one a line (as Tether reads a message's parts), thoughts left out: a model's reasoning is not what it said. */
export function textOf(content: AdkContent): string {
  return (content.parts ?? [])
    .filter((part) => part.text !== undefined && !part.thought)
    .map((part) => part.text)
    .join("\n");
}
