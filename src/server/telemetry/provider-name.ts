/** AI SDK provider ids (their first part) and the GenAI conventions' names for the same providers. */
const KNOWN: Array<[prefix: string, name: string]> = [
  ["openai.", "openai"],
  ["azure.", "azure.ai.openai"],
  ["anthropic.", "anthropic"],
  ["google.vertex", "gcp.vertex_ai"],
  ["google.", "gcp.gemini"],
  ["amazon-bedrock", "aws.bedrock"],
  ["mistral.", "mistral_ai"],
  ["groq.", "groq"],
  ["deepseek.", "deepseek"],
  ["xai.", "x_ai"],
  ["cohere.", "cohere"],
  ["perplexity", "perplexity"],
];

/**
 * `gen_ai.provider.name` for an AI SDK model's `provider` ("openai.chat",
 * "anthropic.messages", "google.generative-ai"): the conventions' well-known
 * name when there is one, else the AI SDK's id as it is (an OpenAI-compatible
 * server's own name, the offline playbook's "tether.playbook").
 */
export function providerName(provider: string): string {
  return KNOWN.find(([prefix]) => provider.startsWith(prefix))?.[1] ?? provider;
}
