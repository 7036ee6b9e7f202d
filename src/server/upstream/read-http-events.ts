import type { transformHttpEventStream } from "@ag-ui/client";
import { Observable, type ObservedValueOf } from "rxjs";

/** What the client's parsers read (a type its build uses but does not export). */
type HttpEvent = ObservedValueOf<Parameters<typeof transformHttpEventStream>[0]>;

/**
 * A response as `@ag-ui/client`'s stream parsers take it: its headers, then
 * each piece of its body. The client's own `runHttpRequest` (1.0.0) rethrows
 * the body's error when it cancels the reader after a failed read, as it
 * tidies up, where nothing catches it: an upstream that dies mid-stream would
 * leave an unhandled rejection, which stops a Node server. Here the stream's
 * failure is told once, to the subscriber; tidying up never throws.
 */
export function readHttpEvents(fetchResponse: () => Promise<Response>): Observable<HttpEvent> {
  return new Observable<HttpEvent>((subscriber) => {
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    let closed = false;
    void (async () => {
      try {
        const response = await fetchResponse();
        if (!response.ok) {
          const body = await response.text().catch(() => "");
          throw new Error(`HTTP ${response.status}: ${body}`);
        }
        if (!response.body) throw new Error("The response has no body.");
        // The enum is only a type in @ag-ui/client's build: its values are these strings.
        subscriber.next({ type: "headers", status: response.status, headers: response.headers } as unknown as HttpEvent);
        reader = response.body.getReader();
        if (closed) return void reader.cancel().catch(() => {});
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          subscriber.next({ type: "data", data: value } as unknown as HttpEvent);
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
