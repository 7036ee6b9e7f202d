import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { listen, type ListenOptions, type Listening } from "./listen.ts";

/** A GET naming `host` in its Host header (fetch may not set it), to the server at `url`. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.once("error", reject);
    req.end();
  });
}

const app = { fetch: () => new Response("hello") };
let server: Listening | undefined;
const start = async (options: Partial<ListenOptions> = {}) => (server = await listen(app, { port: 0, host: "127.0.0.1", ...options }));

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("listen", () => {
  it("on a loopback address, answers only requests for loopback names: a page reached by DNS rebinding is refused", async () => {
    const { url } = await start();
    for (const host of ["127.0.0.1", "localhost", "app.localhost", "[::1]"]) {
      expect(await getWithHost(url, `${host}:8787`), host).toEqual({ status: 200, body: "hello" });
    }
    const refused = await getWithHost(url, "attacker.example:8787");
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({
      error: { code: "forbidden", message: expect.stringContaining('Refused a request for the host "attacker.example"') },
    });
  });

  it("answers the names it is given, as behind a proxy that keeps the public name, and any name when told so", async () => {
    const { url } = await start({ allowedHosts: ["app.example.com"] });
    expect((await getWithHost(url, "app.example.com")).status).toBe(200);
    expect((await getWithHost(url, "localhost")).status).toBe(403);
    await server!.close();
    const open = await start({ allowedHosts: "any" });
    expect((await getWithHost(open.url, "attacker.example")).status).toBe(200);
  });
});
