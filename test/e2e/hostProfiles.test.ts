/**
 * The add-in under every Excel the manifest admits, as the stand-in plays them (test/host/profiles.ts, sources
 * in docs/hosts.md): Excel on the web, Microsoft 365 on Windows and on Mac, Office 2024 / LTSC on Windows. Under
 * each: sign-in, the reference formulas, a whole-record card, freeze and restore, an export saved, and a reload.
 * What differs is asserted per host: data types only where CustomFunctionsRuntime 1.4 is, empty cells as the
 * host passes them, files saved by the pane in a browser and by the person's browser on desktop, functions
 * re-run when the workbook opens on the web only, a remembered secret that WebKit cannot keep reported.
 */
import { NUMBER_FORMAT_BY_KIND } from "../../src/tables/columnKinds";
import { HOST_PROFILES, PROFILE_NAMES, holdsDataTypes } from "../host/profiles";
import type { Cell, CellValue } from "../host/workbook/workbook";
import { rawService, type RawService } from "../support/rawService";
import {
  SETUP_TIMEOUT_MS,
  allCalculated,
  newSheet,
  openPreviewBrowser,
  openTab,
  paneAction,
  paneRestore,
  shownAt,
  signIn,
  tick,
  typeInto,
  valuesOf,
  type HostWindow,
  type PreviewBrowser,
} from "./support/previewBrowser";

jest.setTimeout(120_000);

const CLIENT = ["demo-proplus", "sandbox-secret-proplus"] as const;

/** The reference formulas: the catalogue's families, each answered by the sandbox. */
const FORMULAS: [string, string][] = [
  ["A1", "=RENT.COMPSETS()"],
  ["A6", '=RENT.BOUNDARIES("Austin", "MSA", 3)'],
  ["A12", '=RENT.MARKET(RENT.BOUNDARY("Austin", "MSA"), "rent_avg_t30")'],
  ["A14", '=RENT.LOOKUP("city=Austin; max_results=5")'],
  ["C14", '=RENT.PROPERTY(A15:A19, "asking_rent")'],
];

/** Every cell of a sheet, as the host holds it. */
const cellsOf = (world: PreviewBrowser, sheet: string) =>
  world.page.evaluate(
    (name) => [...(window as unknown as HostWindow).rentMarketHost.workbook.sheet(name).cells.values()],
    sheet,
  );

const cellAt = (world: PreviewBrowser, sheet: string, row: number, column: number) =>
  world.page.evaluate(
    ({ name, row, column }) =>
      (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name).cell(row, column) as
        Cell | undefined,
    { name: sheet, row, column },
  );

/** What the cells of a rectangle from A1 show (a spill frozen to values is no longer a spill). */
const valuesFromA1 = (world: PreviewBrowser, sheet: string, rowCount: number, columnCount: number) =>
  world.page.evaluate(
    ({ name, rowCount, columnCount }) => {
      const target = (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name);
      return Array.from({ length: rowCount }, (_, r) =>
        Array.from({ length: columnCount }, (_, c) => target.cell(r, c)?.value ?? ""),
      );
    },
    { name: sheet, rowCount, columnCount },
  );

const invocations = (world: PreviewBrowser) =>
  world.page.evaluate(() =>
    [...(window as unknown as HostWindow).rentMarketHost.calculator.invocationCounts.values()].reduce(
      (sum, count) => sum + count,
      0,
    ),
  );

const outside = (world: PreviewBrowser) =>
  world.page.evaluate(() => {
    const { browserWindows, windowOpens, blobDownloads } = (window as unknown as HostWindow).rentMarketHost
      .outside;
    return { browserWindows, windowOpens, blobDownloads };
  });

describe.each(PROFILE_NAMES)("under the %s profile", (profileName) => {
  const profile = HOST_PROFILES[profileName];
  const dataTypes = holdsDataTypes(profile);
  let world: PreviewBrowser;
  let raw: RawService;
  let accountId: number;
  let propertyId: number;
  let propertyName: string;
  let formulasSheet: string;
  let calculated: CellValue[][][];

  beforeAll(async () => {
    world = await openPreviewBrowser({}, undefined, profileName);
    raw = await rawService(world.preview.sandbox.url, ...CLIENT);
    accountId = (await raw.get<{ data: { id: number }[] }>("/accounts")).data[0]?.id ?? 0;
    const ids = (
      await raw.get<{ data: number[] }>("/properties/lookup", {
        account_id: accountId,
        city: "Austin",
        per_page: 20,
      })
    ).data;
    const records = (
      await raw.get<{ data: { attributes: Record<string, unknown> }[] }>("/properties/bulk_details", {
        account_id: accountId,
        property_ids: ids.join(","),
      })
    ).data.map((entry) => entry.attributes);
    const record = records.find((candidate) => typeof candidate.asking_rent === "number");
    propertyId = record?.property_id as number;
    propertyName = record?.property_name as string;
  }, SETUP_TIMEOUT_MS);

  afterAll(() => world?.close());

  const shownValues = async () => {
    const shown: CellValue[][][] = [];
    for (const [address] of FORMULAS) shown.push(valuesOf(await shownAt(world.page, formulasSheet, address)));
    return shown;
  };

  it("signs in and calculates the reference formulas: no #VALUE!, data types only where the host has them", async () => {
    await signIn(world, ...CLIENT);
    formulasSheet = await newSheet(world.page);
    for (const [address, formula] of FORMULAS) await typeInto(world.page, address, formula);
    await allCalculated(world.page);
    calculated = await shownValues();
    const cells = await cellsOf(world, formulasSheet);
    expect(cells.filter((cell) => String(cell.value).startsWith("#"))).toEqual([]);
    const rents = calculated[4]?.flat() ?? [];
    expect(rents.some((value) => typeof value === "number")).toBe(true);
    expect(rents.every((value) => typeof value === "number" || value === "")).toBe(true);
    const rent = await cellAt(world, formulasSheet, 14, 2);
    if (dataTypes) expect(rent?.valueFormat).toBe(NUMBER_FORMAT_BY_KIND.currency);
    else expect(cells.filter((cell) => cell.valueFormat !== undefined || cell.entity)).toEqual([]);
  });

  it("shows a whole record (a card, or field rows without data types), also for an empty field cell", async () => {
    const sheet = await newSheet(world.page);
    await typeInto(world.page, "A1", `=RENT.PROPERTY(${propertyId})`);
    // Z1 is empty: the web passes null, desktop 0; either way it means "no field".
    await typeInto(world.page, "D1", `=RENT.PROPERTY(${propertyId}, Z1)`);
    await allCalculated(world.page);
    const whole = await shownAt(world.page, sheet, "A1");
    expect(await shownAt(world.page, sheet, "D1")).toEqual(whole);
    if (dataTypes) {
      expect(whole).toEqual([[{ value: propertyName }]]);
      expect((await cellAt(world, sheet, 0, 0))?.entity?.fields.asking_rent).toBeDefined();
    } else {
      expect(valuesOf(whole)).toContainEqual(["property_name", propertyName]);
      expect((await cellsOf(world, sheet)).some((cell) => cell.entity)).toBe(false);
    }
  });

  it("freezes a card and a rent so they stay readable and keep their format, then restores them", async () => {
    const { page, pane } = world;
    const sheet = await newSheet(page);
    await typeInto(page, "A1", `=RENT.PROPERTY(${propertyId})`);
    await typeInto(page, "D1", `=RENT.PROPERTY(${propertyId}, "asking_rent")`);
    await allCalculated(page);
    const before = [await cellAt(world, sheet, 0, 0), await cellAt(world, sheet, 0, 3)];
    const shownBefore = valuesOf(await shownAt(page, sheet, "A1"));

    await openTab(world, "workbook");
    await pane.locator("#freeze-scope").selectOption("sheet");
    expect(await paneAction(world, "freeze-button")).toMatch(/^Replaced 2 RENT formulas with their values/);
    const [card, rent] = [await cellAt(world, sheet, 0, 0), await cellAt(world, sheet, 0, 3)];
    expect(card?.formula).toBeUndefined();
    expect(rent?.formula).toBeUndefined();
    expect(card?.value).toBe(before[0]?.value);
    expect(rent?.value).toBe(before[1]?.value);
    expect(rent?.valueFormat).toBe(before[1]?.valueFormat);
    if (dataTypes) {
      expect(card?.value).toBe(propertyName);
      expect(card?.entity?.text).toBe(propertyName);
      expect(rent?.valueFormat).toBe(NUMBER_FORMAT_BY_KIND.currency);
    } else {
      const rows = shownBefore.length;
      expect(await valuesFromA1(world, sheet, rows, 2)).toEqual(shownBefore);
    }

    expect((await paneRestore(world)).summary).toBe("Restored 2 RENT formulas.");
    await allCalculated(page);
    expect((await cellAt(world, sheet, 0, 0))?.formula).toBe(`=RENT.PROPERTY(${propertyId})`);
    expect(valuesOf(await shownAt(page, sheet, "A1"))).toEqual(shownBefore);
  });

  it("saves an export file: by the pane in a browser, by the person's browser on desktop", async () => {
    const { pane, preview } = world;
    await openTab(world, "exports");
    await pane.locator("#job-report-type").selectOption("units");
    await pane.locator("#job-format").selectOption("csv");
    await pane.locator("#job-start-date").fill("2026-01-01");
    await pane.locator("#job-end-date").fill("2026-01-02");
    await pane.locator("#job-property-ids textarea").fill(String(propertyId));
    const listed = () => pane.locator("#jobs-list li").evaluateAll((items) => items.map((item) => item.id));
    const before = await listed();
    await paneAction(world, "job-submit-button");
    const jobElementId = (await listed()).find((id) => !before.includes(id)) ?? "";
    const jobId = jobElementId.replace(/^job-/, "");
    await pane.locator(`#${jobElementId}[data-status="succeeded"]`).waitFor({ timeout: 30_000 });

    const status = await paneAction(world, `job-save-${jobId}`);
    const tried = await outside(world);
    expect(tried.windowOpens).toEqual([]);
    if (profile.blobDownload) {
      expect(status).toMatch(/^Saved .+\.csv\.$/);
      expect(tried.blobDownloads).toEqual([{ fileName: expect.stringMatching(/\.csv$/), saved: true }]);
      expect(tried.browserWindows).toEqual([]);
    } else {
      expect(status).toMatch(/browser opened the export file's link/);
      expect(tried.blobDownloads).toEqual([]);
      expect(tried.browserWindows).toHaveLength(1);
      expect(tried.browserWindows[0]?.startsWith(preview.sandbox.downloadUrl)).toBe(true);
      // The person's browser, given the address alone, gets the file.
      const [visit] = await world.defaultBrowser.visited(1);
      expect(visit?.status).toBe(200);
    }
  });

  it("reloads: functions re-run on open on the web only, and the cells come back from IndexedDB", async () => {
    const { page, pane, preview } = world;
    const counters = preview.sandbox.counters;

    // Signed in without a remembered secret: after the reload nobody is signed in, and only the host decides
    // whether the RENT cells run when the workbook opens.
    await page.reload();
    await pane.locator("#sign-in-button").waitFor({ state: "attached" });
    await page.locator("#sheet-tabs .tab", { hasText: formulasSheet }).click();
    if (profile.recalculatesOnOpen) {
      await page.waitForFunction(() =>
        [...(window as unknown as HostWindow).rentMarketHost.calculator.invocationCounts.values()].some(
          (count) => count > 0,
        ),
      );
    } else {
      expect(await shownValues()).toEqual(calculated);
      expect(await invocations(world)).toBe(0);
    }

    // Signed in again, remembering the secret: WebKit (Mac) cannot keep it, and the pane says so.
    await tick(pane.locator("#remember-secret"));
    await signIn(world, ...CLIENT);
    const remembered = await pane.locator("#status").textContent();
    if (profile.storesCryptoKeys) expect(remembered).not.toMatch(/cannot remember/);
    else expect(remembered).toMatch(/cannot remember the secret/);
    await allCalculated(page);
    expect(await shownValues()).toEqual(calculated);
    if (profile.partitionKey !== undefined) {
      const keys = await page.frame({ url: /taskpane\.html/ })?.evaluate(() => Object.keys(localStorage));
      const paneKeys = (keys ?? []).filter((key) => key.includes("rent-market."));
      expect(paneKeys.length).toBeGreaterThan(0);
      for (const key of paneKeys) expect(key.startsWith(profile.partitionKey)).toBe(true);
    }

    // Reloaded again: signed in by itself where the secret was kept. On the web the cells run again on open and
    // come from IndexedDB; on desktop they keep what the workbook saved, and a sign-in re-runs none of them
    // (only cells showing #N/A or #BUSY!).
    counters.reset();
    await page.reload();
    if (profile.storesCryptoKeys) await pane.locator("#signed-in-section").waitFor({ state: "visible" });
    else await signIn(world, ...CLIENT);
    await page.locator("#sheet-tabs .tab", { hasText: formulasSheet }).click();
    if (profile.recalculatesOnOpen)
      await page.waitForFunction(() =>
        [...(window as unknown as HostWindow).rentMarketHost.calculator.invocationCounts.values()].some(
          (count) => count > 0,
        ),
      );
    await allCalculated(page);
    if (!profile.recalculatesOnOpen) expect(await invocations(world)).toBe(0);
    expect(await shownValues()).toEqual(calculated);
    expect(Object.keys(counters.snapshot()).sort()).toEqual(["/oauth/token", "/v1/accounts"]);
  });
});
