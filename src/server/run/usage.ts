import type { TokenUsage } from "@ag-ui/core";
import type { LanguageModelV3, LanguageModelV3Usage } from "@ai-sdk/provider";

/** The AI SDK's per-call usage as AG-UI's TokenUsage; counts a provider did not report stay absent. */
export function toTokenUsage(model: LanguageModelV3, usage: LanguageModelV3Usage): TokenUsage {
  const entry: TokenUsage = { provider: model.provider, model: model.modelId };
  const set = (key: keyof TokenUsage, value: number | undefined) => {
    if (typeof value === "number" && Number.isFinite(value)) (entry as Record<string, unknown>)[key] = value;
  };
  set("inputTokens", usage.inputTokens.total);
  set("outputTokens", usage.outputTokens.total);
  const { total: input } = usage.inputTokens;
  const { total: output } = usage.outputTokens;
  if (typeof input === "number" && typeof output === "number") set("totalTokens", input + output);
  set("reasoningTokens", usage.outputTokens.reasoning);
  set("cachedInputTokens", usage.inputTokens.cacheRead);
  set("cacheWriteInputTokens", usage.inputTokens.cacheWrite);
  return entry;
}
