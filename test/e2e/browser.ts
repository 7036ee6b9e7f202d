import { chromium, type Browser } from "playwright-core";

export interface ChromiumOptions {
  /**
   * Whether Chromium's popup blocker is on. Playwright turns it off by default
   * (`--disable-popup-blocking`); "blocked" launches Chromium as users have it,
   * where a window.open without a user gesture is refused.
   */
  popups?: "allowed" | "blocked";
}

/** Debian's Chromium, headless, with the flags this machine needs (no sandbox as root, no background network). */
export function launchChromium(options: ChromiumOptions = {}): Promise<Browser> {
  const blocked = options.popups === "blocked";
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      ...(blocked ? [] : ["--disable-popup-blocking"]),
    ],
    ...(blocked ? { ignoreDefaultArgs: ["--disable-popup-blocking"] } : {}),
  });
}
