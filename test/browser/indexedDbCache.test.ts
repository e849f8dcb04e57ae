/**
 * The cache once in a real browser: Chromium (from apt) driven by playwright-core, the cache modules bundled
 * with esbuild and served from 127.0.0.1, real IndexedDB, a page reload between writing and reading.
 */
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { workerChromium } from "../support/chromium";
import { serveBundle, type ServedBundle } from "./support/bundleServer";

let served: ServedBundle;
let chromium: Awaited<ReturnType<typeof workerChromium>>;
let context: BrowserContext;
let page: Page;

type CachePage = {
  write(): Promise<void>;
  read(): Promise<{
    values: Record<string, unknown>;
    fresh: boolean[];
    persistent: boolean;
    entries: number;
  }>;
  clearKind(kind: string): Promise<void>;
  overfill(): Promise<void>;
  unitsLeft(): Promise<number[]>;
};
declare const cachePage: CachePage;

beforeAll(async () => {
  served = await serveBundle(join(__dirname, "support", "cachePage.ts"));
  // The worker's Chromium; a context of this file's own, so its IndexedDB starts empty.
  chromium = await workerChromium();
  context = await chromium.browser.newContext();
  page = await context.newPage();
  await page.goto(`${served.origin}/`);
});

afterAll(async () => {
  await context?.close();
  await chromium?.release();
  await served?.close();
});

const reload = () => page.reload({ waitUntil: "load" });

describe("the cache in Chromium with real IndexedDB", () => {
  it("keeps entries across a reload, clears by kind, and evicts beyond the cap", async () => {
    expect(await page.evaluate(() => typeof indexedDB)).toBe("object");
    await page.evaluate(() => cachePage.write());
    await reload();

    const afterReload = await page.evaluate(() => cachePage.read());
    expect(afterReload).toEqual({
      values: {
        property1: { id: 1, rent: 1001 },
        property2: { id: 2, rent: 1002 },
        property3: { id: 3, rent: 1003 },
        market1: { name: "Austin", rent_avg_t30: 1650.5 },
      },
      fresh: [true, true, true, true],
      persistent: true,
      entries: 4,
    });

    await page.evaluate(() => cachePage.clearKind("property"));
    await reload();
    const afterClear = await page.evaluate(() => cachePage.read());
    expect(Object.keys(afterClear.values)).toEqual(["market1"]);
    expect(afterClear.entries).toBe(1);

    await page.evaluate(() => cachePage.overfill());
    await reload();
    expect(await page.evaluate(() => cachePage.unitsLeft())).toEqual([12, 13]);
    expect((await page.evaluate(() => cachePage.read())).values).toEqual({});
  });
});
