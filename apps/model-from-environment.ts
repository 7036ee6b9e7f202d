import type { LanguageModelV3 } from "@ai-sdk/provider";
import { TetherError } from "@tether-agent/tether/protocol";
import { providerFetch } from "@tether-agent/tether/server";

export const MODEL_PROVIDERS = ["openai", "anthropic", "google", "openai-compatible"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export interface ModelSpec {
  provider: ModelProvider;
  modelId: string;
  /** Only for `openai-compatible`: the server's base URL (Ollama, vLLM, LM Studio). */
  baseURL?: string;
}

const FORMS = "openai:<model>, anthropic:<model>, google:<model> or openai-compatible:<model>@<baseURL>";

/** Parses `TETHER_MODEL`: `openai:gpt-4o-mini`, `openai-compatible:llama3.1@http://localhost:11434/v1`. */
export function parseModelSpec(value: string): ModelSpec {
  const colon = value.indexOf(":");
  if (colon <= 0) throw new TetherError("config_invalid", `TETHER_MODEL="${value}" is not of the form ${FORMS}.`);
  const provider = value.slice(0, colon);
  const rest = value.slice(colon + 1);
  if (!(MODEL_PROVIDERS as readonly string[]).includes(provider)) {
    throw new TetherError("model_provider_unknown", `TETHER_MODEL names the provider "${provider}", which Tether does not know. Use ${FORMS}.`);
  }
  if (provider === "openai-compatible") {
    const at = rest.lastIndexOf("@");
    const modelId = rest.slice(0, at);
    const baseURL = rest.slice(at + 1);
    if (at <= 0 || !/^https?:\/\/\S+$/.test(baseURL)) {
      throw new TetherError("config_invalid", `TETHER_MODEL="${value}" needs a model and a base URL: openai-compatible:<model>@<http(s)://host/v1>.`);
    }
    return { provider, modelId, baseURL };
  }
  if (!rest) throw new TetherError("config_invalid", `TETHER_MODEL="${value}" names no model after "${provider}:".`);
  return { provider: provider as ModelProvider, modelId: rest };
}

/**
 * The AI SDK model a spec names, configured from each provider's usual
 * environment variables. A missing key is a start-up error naming it. Only
 * the named provider's package is loaded: the others cost start-up time
 * for nothing.
 */
export async function createModel(spec: ModelSpec, env: Record<string, string | undefined> = process.env): Promise<LanguageModelV3> {
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new TetherError("model_config_missing", `TETHER_MODEL uses ${spec.provider}, so set ${name} (the provider's API key).`);
    return value;
  };
  const optional = (name: string) => env[name] || undefined;
  // Every provider calls its model through Node's own HTTP client with kept-alive connections.
  const fetch = providerFetch;
  switch (spec.provider) {
    case "openai": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      // Chat Completions: the wire protocol OpenAI and most gateways speak.
      return createOpenAI({ apiKey: required("OPENAI_API_KEY"), baseURL: optional("OPENAI_BASE_URL"), fetch }).chat(spec.modelId);
    }
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      return createAnthropic({ apiKey: required("ANTHROPIC_API_KEY"), baseURL: optional("ANTHROPIC_BASE_URL"), fetch })(spec.modelId);
    }
    case "google": {
      const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
      return createGoogleGenerativeAI({ apiKey: required("GOOGLE_GENERATIVE_AI_API_KEY"), baseURL: optional("GOOGLE_GENERATIVE_AI_BASE_URL"), fetch })(
        spec.modelId,
      );
    }
    case "openai-compatible": {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      // includeUsage: without it the server never streams token counts.
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: spec.baseURL!,
        apiKey: optional("OPENAI_COMPATIBLE_API_KEY"),
        includeUsage: true,
        fetch,
      }).chatModel(spec.modelId);
    }
  }
}

/** The model `TETHER_MODEL` asks for, or undefined when it is not set (the demos then use their playbook). */
export async function modelFromEnvironment(env: Record<string, string | undefined> = process.env): Promise<LanguageModelV3 | undefined> {
  const value = env.TETHER_MODEL?.trim();
  return value ? createModel(parseModelSpec(value), env) : undefined;
}
