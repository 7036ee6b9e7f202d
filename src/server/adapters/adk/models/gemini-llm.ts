import { Gemini } from "@google/adk";
import { TetherError } from "../../../../protocol/index.ts";

export interface GeminiLlmOptions {
  /** The Gemini model, e.g. "gemini-2.5-flash". */
  model: string;
  /** The Gemini API key. Without it ADK reads GOOGLE_GENAI_API_KEY, GOOGLE_API_KEY or GEMINI_API_KEY. */
  apiKey?: string;
  /** Where the Gemini API is (a proxy, a gateway, aimock in tests). Default: Google's. */
  baseUrl?: string;
  /** Sent with every request, over ADK's own tracking headers. */
  headers?: Record<string, string>;
}

/**
 * ADK's own Gemini model, with a base URL of its own. ADK's `GeminiParams`
 * has no base URL, and the two process-wide ways (GOOGLE_GEMINI_BASE_URL,
 * `setDefaultBaseUrls`) would move every Gemini in the process, tests in one
 * worker included; this instance's HTTP options carry it instead.
 *
 * @example
 * const agent = new LlmAgent({ name: "assistant", model: createGeminiLlm({ model: "gemini-2.5-flash" }) });
 */
export function createGeminiLlm(options: GeminiLlmOptions): Gemini {
  const { baseUrl, ...params } = options;
  try {
    return new GeminiAt(params, baseUrl);
  } catch (error) {
    // ADK refuses a Gemini without a key (or, in Vertex AI mode, without a project and location) when it is made.
    const reason = error instanceof Error ? error.message : String(error);
    throw new TetherError(
      "config_invalid",
      `ADK's Gemini model "${options.model}" could not be set up: ${reason} Pass apiKey to createGeminiLlm or set GOOGLE_API_KEY.`,
      { cause: error },
    );
  }
}

/** `Gemini` reaching its API at `baseUrl`: `getHttpOptions` is the hook ADK builds its API client from (once, lazily). */
class GeminiAt extends Gemini {
  private readonly baseUrl: string | undefined;

  constructor(params: Omit<GeminiLlmOptions, "baseUrl">, baseUrl: string | undefined) {
    super(params);
    this.baseUrl = baseUrl;
  }

  protected override getHttpOptions() {
    const options = super.getHttpOptions();
    return this.baseUrl === undefined ? options : { ...options, baseUrl: this.baseUrl };
  }
}
