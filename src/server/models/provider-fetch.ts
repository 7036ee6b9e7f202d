import { Agent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

// Kept-alive connections to model providers, as many as there are streams at once.
const agents = { "http:": new Agent({ keepAlive: true }), "https:": new HttpsAgent({ keepAlive: true }) };
/**
 * The platform's Response. @hono/node-server swaps the global for a lighter subclass of it, which builds the
 * platform's one again as soon as its body is read, and a provider reads every body: the root of the class
 * chain is taken, whenever this module is loaded.
 */
const NativeResponse = rootClass(globalThis.Response);

/**
 * A `fetch` for the AI SDK's providers (their `fetch` option) on Node's own
 * HTTP client with kept-alive connections. A model call is one POST whose
 * answer streams; WHATWG fetch's request machinery costs more CPU per call
 * than the call's own parsing, and a busy server makes thousands. Anything
 * but a string body (a file upload) goes to the global `fetch`.
 *
 * @example
 * const model = createOpenAI({ apiKey, fetch: providerFetch }).chat("gpt-4o-mini");
 */
export const providerFetch: typeof fetch = (input, init = {}) => {
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  const agent = agents[url.protocol as keyof typeof agents];
  const body = init.body ?? undefined;
  if (!agent || (body !== undefined && typeof body !== "string") || !(typeof input === "string" || input instanceof URL)) return fetch(input, init);
  return new Promise<Response>((resolve, reject) => {
    const headers = requestHeaders(init.headers);
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(
      url,
      { method: init.method ?? "GET", headers, agent, ...(init.signal ? { signal: init.signal } : {}) },
      (response) => {
        try {
          resolve(toResponse(response, init.signal));
        } catch (error) {
          // A status or status text the platform refuses (a 600, a control character): a failed call, not a crash.
          response.destroy();
          reject(error);
        }
      },
    );
    request.once("error", reject);
    request.end(body);
  });
};

function toResponse(response: IncomingMessage, signal: AbortSignal | null | undefined): Response {
  const status = response.statusCode ?? 502;
  // A body is not allowed with these statuses; the stream is drained so the connection is reused.
  if (status === 204 || status === 205 || status === 304) {
    response.resume();
    return new NativeResponse(null, { status, statusText: response.statusMessage ?? "", headers: toHeaders(response.rawHeaders) });
  }
  let settled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const settle = (end: () => void) => {
        if (settled) return;
        settled = true;
        end();
      };
      response.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
      response.once("end", () => settle(() => controller.close()));
      response.once("error", (error) => settle(() => controller.error(error)));
      // Closed before its end without an error of its own: aborted, or the connection dropped. A plain Error, as
      // fetch's own body errors are: the AI SDK reads it, and toModelError words it as model_error for the client.
      response.once("close", () =>
        settle(() => controller.error(signal?.aborted ? signal.reason : new Error("The model's connection closed before its answer ended."))),
      );
    },
    cancel() {
      settled = true;
      response.destroy();
    },
  });
  return new NativeResponse(body, { status, statusText: response.statusMessage ?? "", headers: toHeaders(response.rawHeaders) });
}

/** The AI SDK passes a plain object (its names already through `Headers`): copied as it is; Node checks each header. */
function requestHeaders(init: HeadersInit | undefined): Record<string, string> {
  if (init && Object.getPrototypeOf(init) === Object.prototype) return { ...(init as Record<string, string>) };
  const headers: Record<string, string> = {};
  new Headers(init).forEach((value, key) => (headers[key] = value));
  return headers;
}

function rootClass<T extends abstract new (...args: never[]) => unknown>(type: T): T {
  let root = type;
  while (Object.getPrototypeOf(root) !== Function.prototype) root = Object.getPrototypeOf(root) as T;
  return root;
}

/** Name and value pairs as they came: the Response builds its own `Headers` from them, so none is built here first. */
function toHeaders(rawHeaders: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) pairs.push([rawHeaders[index]!, rawHeaders[index + 1]!]);
  return pairs;
}
