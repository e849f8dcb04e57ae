/**
 * The cache once in a real browser: Chromium (from apt) driven by playwright-core, the cache modules bundled
 * with esbuild and served from 127.0.0.1, real IndexedDB, a page reload between writing and reading.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM_ARGS } from "../support/chromium";

let server: Server;
let browser: Browser;
let page: Page;
let url: string;

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
  const bundle = await build({
    entryPoints: [join(__dirname, "support", "cachePage.ts")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
  });
  const script = bundle.outputFiles[0]?.text ?? "";
  server = createServer((request, response) => {
    if (request.url === "/cache.js") {
      response.writeHead(200, { "Content-Type": "text/javascript" }).end(script);
    } else {
      response
        .writeHead(200, { "Content-Type": "text/html" })
        .end('<!doctype html><title>cache</title><script src="/cache.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  page = await browser.newPage();
  await page.goto(url);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
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
