/**
 * The add-in's pages with the real office.js under the Content-Security-Policy the production build ships.
 *
 * First with nothing swapped (the preview swaps office.js for the host stand-in). Each HTML page the built
 * manifest names (the pane and, in the shared runtime, the functions' page are one page) is served as built,
 * at the manifest's own URL, with its policy in its <meta> as webpack wrote it (the add-in's hosts send no
 * policy header). The page's script tag asks Microsoft's CDN for office.js; the browser's routing answers with
 * the copy of @microsoft/office-js the lock file pins, and every file office.js asks for after it from the
 * same folder. Outside Office, office.js finds no host and resolves `Office.onReady` with `host: null`; the
 * pane then starts as it does outside Excel. Every tab is opened (the Insert tab loads a chunk of its own),
 * then the page's clock is moved past office.js's own start-up timers (its logging frame waits 3 s), and any
 * violation reported in any frame fails the test.
 *
 * Then the same in the preview (test/host/), the stand-in loaded after the real office.js to play Excel: a
 * sign-in and a cell calculated through the service, under the same policy (its connect-src also names this
 * run's sandbox, as the preview always does). office.js, outside Office and in a frame, takes the frame to
 * about:blank unless `OsfOptOut` is set (office.debug.js): the stand-in sets it, or the pane never shows.
 */
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import type { BrowserContext, Page, Route } from "playwright-core";
import { SERVER_BUILD, addInBuild } from "../host/addinBuild";
import { startPreview } from "../host/previewServer";
import { workerChromium } from "../support/chromium";
import { recordCspViolations, type CspViolation } from "./support/cspViolations";
import { calculate, signIn, valuesOf } from "./support/previewBrowser";
import { installDefaultBrowser } from "./support/defaultBrowser";

jest.setTimeout(120_000);

const ROOT = join(__dirname, "..", "..");
/** Where the built taskpane.html loads office.js from, and where the package keeps the same files. */
const OFFICE_JS_CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/";
const OFFICE_JS_DIST = join(ROOT, "node_modules", "@microsoft", "office-js", "dist");
/** Longer than any timer office.js sets while it starts (its logging frame after 3 s). */
const OFFICE_JS_START_UP_MS = 60_000;

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css",
  ".png": "image/png",
  ".json": "application/json",
  ".xml": "application/xml",
  ".map": "application/json",
};

const BUILDS: [string, Record<string, string>][] = [
  ["the production build (npm run build)", {}],
  ["a build for a team's server (ADDIN_BASE_URL)", SERVER_BUILD],
];

/** The sources one directive of a built page's Content-Security-Policy admits. */
function policySources(html: string, directive: string): string[] {
  const policy = /http-equiv=["']?Content-Security-Policy["']?\s+content="([^"]*)"/i.exec(html)?.[1] ?? "";
  const found = policy
    .split(";")
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === directive);
  return found?.slice(1) ?? [];
}

/**
 * The HTML pages a built manifest has Office run the add-in in, each once: a SourceLocation's URL, given
 * directly or through a bt:Url that a SourceLocation, Runtime or FunctionFile names. The support and "learn
 * more" pages (SupportUrl, LearnMoreUrl) are the person's browser's, not office.js's.
 */
function manifestPages(manifest: string): string[] {
  const direct = [...manifest.matchAll(/<SourceLocation DefaultValue="(https:[^"]+\.html)"/g)];
  const runIn = new Set(
    [...manifest.matchAll(/<(?:SourceLocation|Runtime|FunctionFile) resid="([^"]+)"/g)].map((m) => m[1]),
  );
  const named = [...manifest.matchAll(/<bt:Url id="([^"]+)" DefaultValue="(https:[^"]+\.html)"/g)].filter(
    (match) => runIn.has(match[1]),
  );
  return [...new Set([...direct.map((m) => m[1]!), ...named.map((m) => m[2]!)])];
}

/** A file of `directory` for a path under it, or undefined (nothing outside it). */
async function fileUnder(directory: string, path: string): Promise<Buffer | undefined> {
  const file = join(directory, decodeURIComponent(path));
  if (!file.startsWith(directory) || path.includes("..")) return undefined;
  return readFile(file).catch(() => undefined);
}

interface Served {
  /** office.js files answered from the package, by path under the CDN folder. */
  officeJs: string[];
  /** Requests for anything else outside the add-in's origin (answered empty). */
  elsewhere: string[];
  /** Requests the add-in's origin or the office.js folder had no file for. */
  missing: string[];
}

/**
 * Answers the add-in's URLs from the build (or lets the origins in `passThrough` answer, a local preview and
 * its sandbox) and office.js's from the package; nothing reaches the network.
 */
async function serve(
  context: BrowserContext,
  own: { baseUrl: string; buildDir: string } | { passThrough: string[] },
): Promise<Served> {
  const served: Served = { officeJs: [], elsewhere: [], missing: [] };
  const answer = async (route: Route, directory: string, path: string) => {
    const body = await fileUnder(directory, path);
    if (!body) {
      served.missing.push(route.request().url());
      return route.fulfill({ status: 404, body: "" });
    }
    const contentType = CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
    return route.fulfill({ status: 200, body, contentType });
  };
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    const address = `${url.origin}${url.pathname}`;
    if ("passThrough" in own) {
      if (own.passThrough.some((origin) => address.startsWith(origin))) return route.continue();
    } else if (address.startsWith(own.baseUrl)) {
      return answer(route, own.buildDir, address.slice(own.baseUrl.length));
    }
    if (address.startsWith(OFFICE_JS_CDN)) {
      // The CDN's file names are case-insensitive; the package's are lower case.
      const path = address.slice(OFFICE_JS_CDN.length).toLowerCase();
      served.officeJs.push(path);
      return answer(route, OFFICE_JS_DIST, path);
    }
    served.elsewhere.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title></title>" });
  });
  return served;
}

/** Opens each of the pane's tabs as a person does (each panel's own markup and scripts then run). */
async function openEveryTab(page: Page): Promise<string[]> {
  const tabs = await page.locator("fluent-tab").evaluateAll((found) => found.map((tab) => tab.id));
  for (const tab of tabs) {
    await page.locator(`#${tab}`).click();
    const panel = await page.locator(`#${tab}`).getAttribute("aria-controls");
    await page.locator(`#${panel}`).waitFor({ state: "visible" });
  }
  return tabs;
}

/** Lets every frame finish loading and every violation already queued reach the recorder. */
async function settle(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    await frame.waitForLoadState("load");
    await frame
      .evaluate(
        () =>
          new Promise<void>((resolve) => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => resolve();
            channel.port2.postMessage(null);
          }),
      )
      .catch(() => undefined);
  }
}

describe.each(BUILDS)("%s", (_name, env) => {
  let buildDir: string;
  let pages: string[];

  beforeAll(async () => {
    buildDir = await addInBuild(env);
    pages = manifestPages(await readFile(join(buildDir, "manifest.xml"), "utf8"));
  }, 300_000);

  it("names the pages office.js runs in: the pane's, which is also the functions' shared runtime", () => {
    expect(pages.map((url) => new URL(url).pathname.split("/").pop())).toEqual(["taskpane.html"]);
  });

  it("runs the real office.js and the whole pane with no Content-Security-Policy violation", async () => {
    const { browser, release } = await workerChromium();
    const context = await browser.newContext({ viewport: { width: 350, height: 900 } });
    try {
      const violations = await recordCspViolations(context);
      await context.clock.install();
      const pageErrors: string[] = [];
      for (const pageUrl of pages) {
        const baseUrl = pageUrl.slice(0, pageUrl.lastIndexOf("/") + 1);
        const served = await serve(context, { baseUrl, buildDir });
        const page = await context.newPage();
        page.on("pageerror", (error) => pageErrors.push(`${error.message} @ ${error.stack ?? ""}`));
        await page.goto(pageUrl);

        // The pane shows once Office.onReady has called back: office.js ran, found no host, and said so.
        await page
          .locator("#pane-main")
          .waitFor({ state: "visible" })
          .catch((error: unknown) => {
            const seen = JSON.stringify(violations.violations, null, 1);
            throw new Error(`The pane never showed (${String(error)}). CSP violations: ${seen}`);
          });
        const ready = await page.evaluate(() => Office.onReady());
        expect(ready.host).toBeNull();
        expect(served.officeJs).toContain("office.js");
        expect(served.missing).toEqual([]);

        expect((await openEveryTab(page)).length).toBeGreaterThan(1);
        await page.clock.fastForward(OFFICE_JS_START_UP_MS);
        await settle(page);
        expect(pageErrors).toEqual([]);
        expect(violations.violations).toEqual([] satisfies CspViolation[]);
        // Beyond the add-in's origin and office.js's folder, the page reached only frames its policy names
        // (office.js's logging frame, created by the timer the clock just ran: proof the start-up ran whole).
        const html = await readFile(join(buildDir, pageUrl.slice(baseUrl.length)), "utf8");
        expect(served.elsewhere).not.toEqual([]);
        expect(served.elsewhere).toEqual(policySources(html, "frame-src"));
        await context.unroute("**/*");
      }
    } finally {
      await context.close();
      await release();
    }
  });
});

/** A stack whose first frame is in office.js's own files (its CDN folder, which the test serves locally). */
const OFFICE_JS_FIRST_FRAME = /^[^\n]*\n\s*at [^\n]*https:\/\/appsforoffice\.microsoft\.com\/lib\//;

describe("in the preview: the real office.js first, then the stand-in playing Excel", () => {
  it("starts the add-in, signs in and calculates a cell with no Content-Security-Policy violation", async () => {
    const preview = await startPreview({ sandbox: { rateLimit: 1_000_000 }, realOfficeJs: true });
    const { browser, release } = await workerChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    try {
      const violations = await recordCspViolations(context);
      await context.clock.install();
      const passThrough = [preview.url, preview.sandbox.url, preview.sandbox.downloadUrl];
      const served = await serve(context, { passThrough });
      const defaultBrowser = await installDefaultBrowser(context);
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => {
        // office.js's own deferred start-up may run after the stand-in took its globals (two Offices in one
        // page, which only this preview makes) and throw there; an error thrown by the add-in's code or the
        // stand-in's still counts.
        if (!OFFICE_JS_FIRST_FRAME.test(error.stack ?? ""))
          pageErrors.push(`${error.message} @ ${error.stack ?? ""}`);
      });
      await page.goto(preview.url);
      const pane = page.frameLocator("#taskpane-frame");
      await pane.locator("#sign-in-button").waitFor();
      expect(served.officeJs).toContain("office.js");
      // office.js's own start-up (its logging frame after 3 s) has run before the person signs in.
      await page.clock.fastForward(OFFICE_JS_START_UP_MS);

      const world = { preview, browser, page, pane, defaultBrowser, close: async () => undefined };
      await signIn(world, "demo-pro", "sandbox-secret-pro");
      const shown = valuesOf(await calculate(page, '=RENT.MARKET("Austin", "rent_avg_t30")'));
      expect(typeof shown[0]?.[0]).toBe("number");
      await settle(page);
      expect(pageErrors).toEqual([]);
      expect(violations.violations).toEqual([] satisfies CspViolation[]);
      expect(served.missing).toEqual([]);
      // The page reached nothing outside the preview, its sandbox and office.js's folder but the frames its
      // policy names: office.js's logging frame, so office.js ran its start-up whole in the preview too.
      const html = await (await fetch(`${preview.url}taskpane.html`)).text();
      expect(served.elsewhere).not.toEqual([]);
      expect(served.elsewhere).toEqual(policySources(html, "frame-src"));
    } finally {
      await context.close();
      await release();
      await preview.close();
    }
  });
});
