/**
 * The add-in in Chromium with the team relay as the only origin its page talks to: the relay serves a build
 * for it (ADDIN_BASE_URL) with the host stand-in, the pane signs in with a personal key ("Team relay"),
 * formulas of the catalogue and the pane's exports work, and a revoked key fails the next cell with a clear
 * message. Expected values come from the sandbox directly, as the relay's own service account sees them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, FrameLocator, Page } from "playwright-core";
import type { RunningSandbox } from "../../sandbox/server";
import { relayServiceUrl } from "../../relay/options";
import { revokeUser } from "../../relay/users/userAdmin";
import { shapeTable } from "../../src/tables/tableData";
import { FieldPath } from "../../src/api/readers/answerForm";
import { unitsReader } from "../../src/api/readers/serviceReaders";
import { unitsToTable, type UnitEnvelope } from "../../src/tables/unitRecords";
import { percentsAsFractions } from "../../src/tables/exportPercents";
import { parseExportFile } from "../../src/formats/exportFile";
import { SERVER_BASE_URL, SERVER_BUILD, addInBuild } from "../host/addinBuild";
import { writePreviewSite } from "../host/previewServer";
import {
  RELAY_CLIENT,
  startTestRelay,
  startTestSandbox,
  type TestRelay,
} from "../relay/support/relayHarness";
import { workerChromium } from "../support/chromium";
import { installDefaultBrowser, type DefaultBrowser } from "./support/defaultBrowser";
import { rawService, type RawService } from "../support/rawService";
import {
  SETUP_TIMEOUT_MS,
  calculate,
  newSheet,
  openTab,
  paneAction,
  sheetValues,
  shownAt,
  shownTable,
  typeInto,
  valuesOf,
  type PreviewBrowser,
  isTicked,
} from "./support/previewBrowser";

jest.setTimeout(90_000);

const ACCOUNTS = [100, 103];
const ACCOUNT = 100;
let site: string;
let sandbox: RunningSandbox;
let relay: TestRelay;
let raw: RawService;
let browser: Browser;
let releaseBrowser: (() => Promise<void>) | undefined;
let context: BrowserContext | undefined;
let page: Page;
let pane: FrameLocator;
let world: PreviewBrowser;
let defaultBrowser: DefaultBrowser;
let key: string;
/** The bulk export the pane submitted and loaded: "Save file" saves it again. */
let exportedJobId: string;
const requested: string[] = [];

beforeAll(async () => {
  const build = await addInBuild(SERVER_BUILD);
  site = mkdtempSync(path.join(tmpdir(), "relay-site-"));
  await writePreviewSite(build, site);
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox, { distDirectory: site });
  raw = await rawService(sandbox.url, RELAY_CLIENT.clientId, RELAY_CLIENT.clientSecret);
  key = await relay.addUser("analyst", ACCOUNTS);
  // The worker's Chromium (shared with its other browser files), in a context of this file's own.
  ({ browser, release: releaseBrowser } = await workerChromium());
  context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
  defaultBrowser = await installDefaultBrowser(context);
  page = await context.newPage();
  page.on("request", (request) => requested.push(request.url()));
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${relay.url}/`);
  pane = page.frameLocator("#taskpane-frame");
  await pane.locator("#sign-in-button").waitFor();
  world = {
    preview: { url: `${relay.url}/`, sandbox, close: async () => undefined },
    browser,
    page,
    pane,
    defaultBrowser,
    close: async () => undefined,
  };
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await context?.close();
  await releaseBrowser?.();
  await relay?.close();
  await sandbox?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

it("signs in through the relay with a personal key, the build's default sign-in", async () => {
  await expect(isTicked(pane.locator("#method-relay"))).resolves.toBe(true);
  await expect(pane.locator("#service-url input").inputValue()).resolves.toBe(`${SERVER_BASE_URL}api`);
  const settings = pane.locator("details", { has: pane.locator("#service-url") });
  if ((await settings.getAttribute("open")) === null) await settings.locator("summary").click();
  await pane.locator("#service-url input").fill(relayServiceUrl(relay.url));
  await pane.locator("#relay-key input").fill(key);
  await pane.locator("#sign-in-button").click();
  await pane.locator("#signed-in-section").waitFor({ state: "visible" });
  await expect(pane.locator("#signed-in-identity").textContent()).resolves.toBe("team relay key");
  const options = await pane
    .locator("#account-picker option")
    .evaluateAll((items) => items.map((item) => Number((item as HTMLOptionElement).value)));
  expect(options).toEqual(ACCOUNTS);
});

it("answers formulas of the catalogue through the relay", async () => {
  const accountId = ACCOUNT;
  const ids = (
    await raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: accountId,
      city: "Austin",
      per_page: 3,
    })
  ).data;
  const details = await raw.get<{ data: { id: string; attributes: Record<string, unknown> }[] }>(
    "/properties/bulk_details",
    { account_id: accountId, property_ids: ids.join(",") },
  );
  const names = ids.map(
    (id) => details.data.find((record) => record.id === String(id))?.attributes.property_name,
  );
  expect(valuesOf(await calculate(page, `=RENT.PROPERTY(${ids[0]}, "property_name")`))).toEqual([[names[0]]]);

  const sets = await raw.get<{ data: { id: string; attributes: { name: string } }[] }>(
    `/accounts/${accountId}/comp_sets`,
  );
  const compSets = valuesOf(await calculate(page, "=RENT.COMPSETS()"));
  expect(compSets.slice(1).map((row) => row[compSets[0]?.indexOf("name") ?? -1])).toEqual(
    sets.data.map((set) => set.attributes.name),
  );

  const [msa] = (
    await raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
      account_id: accountId,
      query: "Austin",
      geo_type: "MSA",
      limit: 1,
    })
  ).data;
  const markets = await raw.post<{ data: { attributes: { rent_avg_t30: number } }[] }>("/explore_markets", {
    account_id: accountId,
    market_filters: { geo_type: "MSA", geo_boundary_ids: [msa?.attributes.id] },
    limit: 1,
  });
  expect(valuesOf(await calculate(page, `=RENT.MARKET(${msa?.attributes.id}, "rent_avg_t30")`))).toEqual([
    [markets.data[0]?.attributes.rent_avg_t30],
  ]);
});

it("exports a comp set's units and loads a bulk export file, talking to the relay only", async () => {
  const accountId = ACCOUNT;
  const sets = await raw.get<{ data: { id: string }[] }>(`/accounts/${accountId}/comp_sets`);
  const compSetId = String(sets.data[0]?.id);
  await openTab(world, "comp-sets");
  const picker = pane.locator("#comp-set-picker");
  await picker.locator(`option[value="${compSetId}"]`).waitFor({ state: "attached" });
  await picker.selectOption(compSetId);
  const sheet = /to the sheet "(.+)"/.exec(await paneAction(world, "export-units-button"))?.[1] ?? "";
  const answer = await raw.get<{ data: UnitEnvelope[] }>(`/comp_sets/${compSetId}/units`);
  // The answer as the add-in reads every answer (signed amounts such as "+10.00" become numbers, percents fractions).
  const units = unitsReader.read(answer, new FieldPath(unitsReader.endpoint)) as unknown as {
    data: UnitEnvelope[];
  };
  expect(await sheetValues(page, sheet)).toEqual(shownTable(unitsToTable(units.data)));

  const ids = (
    await raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: accountId,
      city: "Austin",
      per_page: 2,
    })
  ).data;
  await openTab(world, "exports");
  await pane.locator("#job-report-type").selectOption("property");
  await pane.locator("#job-format").selectOption("csv");
  await pane.locator("#job-start-date").fill("2026-01-01");
  await pane.locator("#job-end-date").fill("2026-01-02");
  await pane.locator("#job-property-ids textarea").fill(ids.join(", "));
  const listed = () => pane.locator("#jobs-list li").evaluateAll((items) => items.map((item) => item.id));
  const before = await listed();
  await paneAction(world, "job-submit-button");
  const jobElementId = (await listed()).find((id) => !before.includes(id)) ?? "";
  const jobId = jobElementId.replace(/^job-/, "");
  exportedJobId = jobId;
  await pane.locator(`#${jobElementId}[data-status="succeeded"]`).waitFor({ timeout: 30_000 });
  const loaded = /to the sheet "(.+)"/.exec(await paneAction(world, `job-load-${jobId}`))?.[1] ?? "";
  const parsed = await parseExportFile(await raw.download(`/bulk_api/jobs/${jobId}/results`), "csv");
  // The pane writes percents as fractions whatever scale the file used (src/tables/exportPercents.ts).
  const rows = percentsAsFractions(parsed.columns, parsed.rows);
  expect(await sheetValues(page, loaded)).toEqual(shownTable(shapeTable(parsed.columns, rows)));

  const origins = new Set(requested.filter((url) => /^https?:/.test(url)).map((url) => new URL(url).origin));
  expect([...origins]).toEqual([new URL(relay.url).origin]);
  const csp = await page
    .frameLocator("#taskpane-frame")
    .locator('meta[http-equiv="Content-Security-Policy"]')
    .getAttribute("content");
  expect(/connect-src ([^;]*)/.exec(csp ?? "")?.[1]?.trim()).toBe("'self'");
});

it("saves a bulk export in desktop Excel: the person's browser, which has no key, gets the file through the relay", async () => {
  // The page plays Microsoft 365 on Windows (the stand-in's default): files go to the default browser.
  const status = await paneAction(world, `job-save-${exportedJobId}`);
  expect(status).toMatch(/browser opened the export file's link/);
  const [visit] = await defaultBrowser.visited(1);
  expect(new URL(visit?.url ?? "").origin).toBe(new URL(relay.url).origin);
  expect(visit?.status).toBe(200);
  // The file as the service serves it, byte for byte.
  const file = await raw.download(`/bulk_api/jobs/${exportedJobId}/results`);
  expect(visit?.body).toBe(new TextDecoder().decode(file));
});

it("fails the next cell with a clear message once the key is revoked", async () => {
  await revokeUser(relay.relay.store.users, "analyst");
  const sheet = await newSheet(page);
  const [id] = (
    await raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: ACCOUNT,
      city: "Denver",
      per_page: 1,
    })
  ).data;
  await typeInto(page, "A1", `=RENT.PROPERTY(${id}, "asking_rent")`);
  const [[cell]] = (await shownAt(page, sheet, "A1")) as [[{ value: unknown; errorMessage?: string }]];
  expect(cell.errorMessage).toMatch(
    /no longer accepts your personal key.*Ask your relay admin for a new key/,
  );
});
