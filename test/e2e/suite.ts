import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { DemoOptions } from "../../apps/serve.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { launchChromium } from "./browser.ts";

/** The demo server and Chromium for one test file, started before its tests and closed after. */
export function browserSuite(options: DemoOptions = {}): { server(): DemoServer; browser(): Browser } {
  let server: DemoServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startDemoServer(options);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return { server: () => server!, browser: () => browser! };
}
