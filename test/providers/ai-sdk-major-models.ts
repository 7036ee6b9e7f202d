import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createAnthropic as createAnthropic3 } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI as createGoogle3 } from "@ai-sdk/google";
import { createOpenAI as createOpenAI3 } from "@ai-sdk/openai";
import { createOpenAICompatible as createOpenAICompatible2 } from "@ai-sdk/openai-compatible";
import { createAnthropic as createAnthropic4 } from "ai-sdk-anthropic-4";
import { createGoogleGenerativeAI as createGoogle4 } from "ai-sdk-google-4";
import { createOpenAI as createOpenAI4 } from "ai-sdk-openai-4";
import { createOpenAICompatible as createOpenAICompatible3 } from "ai-sdk-openai-compatible-3";
import type { LanguageModelV4 } from "@tether-agent/tether/server";
import { PROVIDER_WIRES, type ProviderWire } from "./provider-wires.ts";

type SpecificationVersion = "v3" | "v4";

/** One provider package of one AI SDK major, built as a user who installed it would build it. */
export interface MajorModel {
  /** Which package, API and specification, for the test's title. */
  name: string;
  /** Unique per entry: thread and run ids carry it. */
  key: string;
  /** The wire aimock speaks to it, and what that wire says about tool call ids and streamed arguments. */
  wire: ProviderWire;
  /** The path the model streams from: the wire's, or for OpenAI's Responses API its own. */
  streamPath: RegExp;
  specificationVersion: SpecificationVersion;
  /** `model.provider`: what the run record and TokenUsage say served the run. */
  provider: string;
  /** The model, talking to aimock at `origin`. */
  model(origin: string): LanguageModelV3 | LanguageModelV4;
}

const wire = (name: ProviderWire["name"]) => PROVIDER_WIRES.find((candidate) => candidate.name === name)!;
const [OPENAI, ANTHROPIC, GOOGLE, COMPATIBLE] = [wire("openai"), wire("anthropic"), wire("google"), wire("openai-compatible")];
const apiKey = "test-key";

/** A provider's API with its package from each major: AI SDK 6's (v3) and AI SDK 7's (v4, installed under an `ai-sdk-…` alias). */
interface ProviderApi {
  key: string;
  api: string;
  wire: ProviderWire;
  streamPath?: RegExp;
  provider: string;
  packages: Record<SpecificationVersion, string>;
  models: Record<SpecificationVersion, MajorModel["model"]>;
}

// The base URLs are those provider-wires.ts explains. OpenAI-compatible is asked
// for usage, as Ollama, vLLM and LM Studio stream it only when asked.
const PROVIDER_APIS: ProviderApi[] = [
  {
    key: "openai-chat",
    api: "Chat Completions",
    wire: OPENAI,
    provider: "openai.chat",
    packages: { v3: "@ai-sdk/openai 3", v4: "@ai-sdk/openai 4" },
    models: {
      v3: (origin) => createOpenAI3({ apiKey, baseURL: `${origin}/v1` }).chat(OPENAI.modelId),
      v4: (origin) => createOpenAI4({ apiKey, baseURL: `${origin}/v1` }).chat(OPENAI.modelId),
    },
  },
  {
    key: "openai-responses",
    api: "Responses",
    wire: OPENAI,
    streamPath: /^\/v1\/responses$/,
    provider: "openai.responses",
    packages: { v3: "@ai-sdk/openai 3", v4: "@ai-sdk/openai 4" },
    models: {
      v3: (origin) => createOpenAI3({ apiKey, baseURL: `${origin}/v1` })(OPENAI.modelId),
      v4: (origin) => createOpenAI4({ apiKey, baseURL: `${origin}/v1` })(OPENAI.modelId),
    },
  },
  {
    key: "anthropic",
    api: "Messages",
    wire: ANTHROPIC,
    provider: ANTHROPIC.sdkProvider,
    packages: { v3: "@ai-sdk/anthropic 3", v4: "@ai-sdk/anthropic 4" },
    models: {
      v3: (origin) => createAnthropic3({ apiKey, baseURL: `${origin}/v1` })(ANTHROPIC.modelId),
      v4: (origin) => createAnthropic4({ apiKey, baseURL: `${origin}/v1` })(ANTHROPIC.modelId),
    },
  },
  {
    key: "google",
    api: "Gemini",
    wire: GOOGLE,
    provider: GOOGLE.sdkProvider,
    packages: { v3: "@ai-sdk/google 3", v4: "@ai-sdk/google 4" },
    models: {
      v3: (origin) => createGoogle3({ apiKey, baseURL: `${origin}/v1beta` })(GOOGLE.modelId),
      v4: (origin) => createGoogle4({ apiKey, baseURL: `${origin}/v1beta` })(GOOGLE.modelId),
    },
  },
  {
    key: "openai-compatible",
    api: "Chat Completions",
    wire: COMPATIBLE,
    provider: COMPATIBLE.sdkProvider,
    packages: { v3: "@ai-sdk/openai-compatible 2", v4: "@ai-sdk/openai-compatible 3" },
    models: {
      v3: (origin) => createOpenAICompatible2({ name: "openai-compatible", apiKey, baseURL: `${origin}/v1`, includeUsage: true })(COMPATIBLE.modelId),
      v4: (origin) => createOpenAICompatible3({ name: "openai-compatible", apiKey, baseURL: `${origin}/v1`, includeUsage: true })(COMPATIBLE.modelId),
    },
  },
];

/** Every provider API × both majors: ten models. */
export const AI_SDK_MAJOR_MODELS: MajorModel[] = PROVIDER_APIS.flatMap(({ key, api, wire, streamPath = wire.streamPath, provider, packages, models }) =>
  (["v3", "v4"] as const).map((version) => ({
    name: `${packages[version]} (${api}, spec ${version})`,
    key: `${key}-${version}`,
    wire,
    streamPath,
    specificationVersion: version,
    provider,
    model: models[version],
  })),
);
