/**
 * The data layer once in real Chromium against the sandbox: CORS, fetch, the typed client and IndexedDB as the
 * add-in's shared runtime uses them. A reloaded page (a new data layer over the same database) makes no calls.
 */
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { ACCOUNT_ID, expectedAttributes, propertyIds } from "../data/support/dataHarness";
import { workerChromium } from "../support/chromium";
import { serveBundle, type ServedBundle } from "./support/bundleServer";

type Named = { id: number; name: string; source: string };
type DataPage = {
  propertyNames(run: { sandboxUrl: string; accountId: number; ids: number[] }): Promise<Named[]>;
  exportHeader(run: { sandboxUrl: string; accountId: number; ids: number[] }): Promise<string>;
};
declare const dataPage: DataPage;

let served: ServedBundle;
let chromium: Awaited<ReturnType<typeof workerChromium>>;
let context: BrowserContext;
let page: Page;
let sandbox: RunningSandbox;

beforeAll(async () => {
  served = await serveBundle(join(__dirname, "support", "dataPage.ts"));
  const origin = served.origin;
  // After the API's cross-origin redirect the browser sends `Origin: null` to the download host (the Fetch
  // standard's tainted origin); the sandbox's download host, like object storage serving signed URLs,
  // answers any origin.
  sandbox = await startSandbox({
    port: 0,
    propertyCount: 2000,
    corsOrigins: [origin],
    jobStartDelayMs: 5,
  });
  // The worker's Chromium; a context of this file's own, so its IndexedDB starts empty.
  chromium = await workerChromium();
  context = await chromium.browser.newContext();
  page = await context.newPage();
  await page.goto(`${origin}/`);
});

afterAll(async () => {
  await context?.close();
  await chromium?.release();
  await sandbox?.close();
  await served?.close();
});

describe("the data layer in Chromium", () => {
  it("fetches through CORS once, then a reloaded page serves the same cells from IndexedDB with zero calls", async () => {
    const run = { sandboxUrl: sandbox.url, accountId: ACCOUNT_ID, ids: propertyIds(sandbox, 5) };
    const expected = run.ids.map((id) => ({ id, name: expectedAttributes(sandbox, id).property_name }));

    const before = sandbox.counters.get("/v1/properties/bulk_details");
    const first = await page.evaluate((args) => dataPage.propertyNames(args), run);
    expect(first).toEqual(expected.map((entry) => ({ ...entry, source: "network" })));
    expect(sandbox.counters.get("/v1/properties/bulk_details") - before).toBe(1);

    await page.reload({ waitUntil: "load" });
    const total = sandbox.counters.total();
    const second = await page.evaluate((args) => dataPage.propertyNames(args), run);
    expect(second).toEqual(expected.map((entry) => ({ ...entry, source: "cache" })));
    expect(sandbox.counters.total()).toBe(total);
  });

  it("downloads an export file from the other origin, the token left behind", async () => {
    const run = { sandboxUrl: sandbox.url, accountId: ACCOUNT_ID, ids: propertyIds(sandbox, 1) };
    expect(await page.evaluate((args) => dataPage.exportHeader(args), run)).toMatch(
      /^report_generation_date,id,/,
    );
  });
});
