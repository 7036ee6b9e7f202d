import { request as httpRequest } from "node:http";

/** What a client got from a GET over plain node:http: the status and body, and whether the response ended cleanly (not cut). */
export interface RawResponse {
  status?: number;
  body: string;
  ended: boolean;
}

/** GETs `url` and resolves when the connection closes, however it closes: a cut stream is an answer here, not an error. */
export function rawGet(url: string): Promise<RawResponse> {
  return new Promise((resolve) => {
    const request = httpRequest(url, (response) => {
      let body = "";
      let ended = false;
      response.on("data", (chunk: Buffer) => (body += String(chunk)));
      response.on("end", () => (ended = true));
      response.on("error", () => {});
      response.once("close", () => resolve({ status: response.statusCode, body, ended }));
    });
    request.once("error", () => resolve({ body: "", ended: false }));
    request.end();
  });
}
