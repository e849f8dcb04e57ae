/**
 * The data layer once in real Chromium against the sandbox: CORS, fetch, the typed client and IndexedDB as the
 * add-in's shared runtime uses them. A reloaded page (a new data layer over the same database) makes no calls.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { ACCOUNT_ID, expectedAttributes, propertyIds } from "../data/support/dataHarness";
import { CHROMIUM_ARGS } from "../support/chromium";

type Named = { id: number; name: string; source: string };
type DataPage = {
  propertyNames(run: { sandboxUrl: string; accountId: number; ids: number[] }): Promise<Named[]>;
  exportHeader(run: { sandboxUrl: string; accountId: number; ids: number[] }): Promise<string>;
};
declare const dataPage: DataPage;

let server: Server;
let browser: Browser;
let page: Page;
let sandbox: RunningSandbox;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [join(__dirname, "support", "dataPage.ts")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
  });
  const script = bundle.outputFiles[0]?.text ?? "";
  server = createServer((request, response) => {
    if (request.url === "/data.js")
      response.writeHead(200, { "Content-Type": "text/javascript" }).end(script);
    else
      response
        .writeHead(200, { "Content-Type": "text/html" })
        .end('<!doctype html><title>data</title><script src="/data.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // After the API's cross-origin redirect the browser sends `Origin: null` to the download host (the Fetch
  // standard's tainted origin), so that host must allow it, as object storage serving signed URLs does ("*").
  sandbox = await startSandbox({
    port: 0,
    propertyCount: 2000,
    corsOrigins: [origin, "null"],
    jobStartDelayMs: 5,
  });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  page = await browser.newPage();
  await page.goto(`${origin}/`);
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await new Promise((resolve) => server?.close(resolve));
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
    expect(await page.evaluate((args) => dataPage.exportHeader(args), run)).toContain("property_id");
  });
});
