import type { Browser } from "playwright-core";
import { sharedForWorker } from "./sharedForWorker";
import { CHROMIUM, ensureSystemTools } from "./systemTools";

/** Chromium from apt, headless, with nothing that reaches the network on its own. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Debian's Chromium (installed by the test setup when missing), headless, as every browser test launches it. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = ensureSystemTools([CHROMIUM]).get(CHROMIUM.command);
  // Loaded only to launch: jest loads a file's modules afresh (playwright-core is most of a second of CPU),
  // and the files that share a worker's browser need none of it.
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/**
 * The Chromium the test files of a jest worker share (see ./sharedForWorker.ts): open a context of your own
 * on it (`browser.newContext()`) and close that, never the browser; then call `release`.
 */
export async function workerChromium(): Promise<{ browser: Browser; release(): Promise<void> }> {
  const shared = sharedForWorker();
  const browser = await shared.get("chromium", launchChromium, (opened) => opened.close());
  return { browser, release: () => shared.release() };
}
