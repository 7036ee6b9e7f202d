import type { transformHttpEventStream } from "@ag-ui/client";
import { AGUI_MEDIA_TYPE } from "@ag-ui/encoder";
import { Observable, type ObservedValueOf } from "rxjs";
import { TetherError } from "../../protocol/index.ts";
import { createSseGuard } from "./sse-guard.ts";
import { upstreamFailure } from "./upstream-failure.ts";

/** What the client's parsers read (a type its build uses but does not export). */
type HttpEvent = ObservedValueOf<Parameters<typeof transformHttpEventStream>[0]>;

/**
 * A response as `@ag-ui/client`'s stream parsers take it: its headers, then
 * each piece of its body. The client's own `runHttpRequest` (1.0.0) rethrows
 * the body's error when it cancels the reader after a failed read, as it
 * tidies up, where nothing catches it: an upstream that dies mid-stream would
 * leave an unhandled rejection, which stops a Node server. Here the stream's
 * failure is told once, to the subscriber; tidying up never throws.
 *
 * What the parsers would take badly is refused or mended first: a body that
 * is not an event stream (an HTML page, JSON), an SSE event longer than
 * `maxEventBytes`, CRLF line ends (see `createSseGuard`). Failures are
 * TetherErrors: `fetchResponse` throws its own, a read that fails is the
 * upstream breaking off its stream.
 */
export function readHttpEvents(fetchResponse: () => Promise<Response>, options: { maxEventBytes: number }): Observable<HttpEvent> {
  return new Observable<HttpEvent>((subscriber) => {
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    let closed = false;
    void (async () => {
      try {
        const response = await fetchResponse();
        const format = streamFormat(response.headers.get("content-type"));
        if (!format) {
          void response.body?.cancel().catch(() => {});
          const media = mediaTypeOf(response.headers.get("content-type")!);
          const named = /^[\w.+/-]{1,100}$/.test(media) ? media : "a content type of its own";
          throw new TetherError(
            "upstream_error",
            `The upstream agent answered with ${named}, not an AG-UI event stream (text/event-stream); is its url the agent's endpoint?`,
          );
        }
        if (!response.body) throw new TetherError("upstream_error", "The upstream agent answered without a body.");
        // The enum is only a type in @ag-ui/client's build: its values are these strings.
        subscriber.next({ type: "headers", status: response.status, headers: response.headers } as unknown as HttpEvent);
        reader = response.body.getReader();
        if (closed) return void reader.cancel().catch(() => {});
        // Protobuf frames say their length, which the client's parser caps (10 MiB) before reading them.
        const guard = format === "sse" ? createSseGuard(options.maxEventBytes) : (piece: Uint8Array) => piece;
        for (;;) {
          const { done, value } = await reader.read().catch((error: unknown) => {
            throw closed ? error : upstreamFailure("upstream_error", "broke off its stream", (error as Error)?.message);
          });
          if (done) break;
          subscriber.next({ type: "data", data: guard(value) } as unknown as HttpEvent);
        }
        subscriber.complete();
      } catch (error) {
        subscriber.error(error);
      }
    })();
    return () => {
      closed = true;
      // The stream may have failed already (its error went to the subscriber) or be cut short here.
      reader?.cancel().catch(() => {});
    };
  });
}

/** SSE, protobuf, or neither; no content type is read as SSE, as `@ag-ui/client` reads it. */
function streamFormat(contentType: string | null): "sse" | "protobuf" | undefined {
  if (contentType === null) return "sse";
  const media = mediaTypeOf(contentType);
  if (media === "text/event-stream") return "sse";
  // The client's parser takes protobuf only for this exact header value, and SSE otherwise.
  if (contentType === AGUI_MEDIA_TYPE) return "protobuf";
  return undefined;
}

function mediaTypeOf(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}
