/**
 * The pane's workbook features in Chromium, through its own buttons, over the stand-in: a comp set's units
 * exported to a sheet, a bulk export in each format loaded into a sheet, refresh with fresh data, freeze
 * to values and restore, the connection check. Each sheet must hold what the sandbox sent, shaped as the
 * add-in shapes it.
 */
import { shapeTable } from "../../src/tables/tableData";
import { FieldPath } from "../../src/api/readers/answerForm";
import { unitsReader } from "../../src/api/readers/serviceReaders";
import { unitsToTable, type UnitEnvelope } from "../../src/tables/unitRecords";
import { parseExportFile } from "../../src/formats/exportFile";
import {
  SETUP_TIMEOUT_MS,
  allCalculated,
  newSheet,
  openPreviewBrowser,
  openTab,
  paneAction,
  sheetValues,
  shownAt,
  shownTable,
  signIn,
  typeInto,
  valuesOf,
  type HostWindow,
  type PreviewBrowser,
  tick,
} from "./support/previewBrowser";
import { rawService, type RawService } from "../support/rawService";

jest.setTimeout(90_000);

let world: PreviewBrowser;
let raw: RawService;
let accountId: number;
let propertyIds: number[];

beforeAll(async () => {
  world = await openPreviewBrowser();
  raw = await rawService(world.preview.sandbox.url, "demo-proplus", "sandbox-secret-proplus");
  accountId = (await raw.get<{ data: { id: number }[] }>("/accounts")).data[0]?.id ?? 0;
  propertyIds = (
    await raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: accountId,
      city: "Austin",
      per_page: 3,
    })
  ).data;
  await signIn(world, "demo-proplus", "sandbox-secret-proplus");
}, SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

const sheetNamed = (status: string) => /to the sheet "(.+)"/.exec(status)?.[1] ?? "";

const sheetLayout = (name: string) =>
  world.page.evaluate((sheetName) => {
    const sheet = (window as unknown as HostWindow).rentMarketHost.workbook.sheet(sheetName);
    return { tables: sheet.tables.length, frozenRows: sheet.frozenRows };
  }, name);

it("exports a comp set's units to a new sheet: every unit, as a table with a frozen header", async () => {
  const sets = await raw.get<{ data: { id: string }[] }>(`/accounts/${accountId}/comp_sets`);
  const compSetId = String(sets.data[0]?.id);
  await openTab(world, "comp-sets");
  const picker = world.pane.locator("#comp-set-picker");
  await picker.locator(`option[value="${compSetId}"]`).waitFor({ state: "attached" });
  await picker.selectOption(compSetId);

  const status = await paneAction(world, "export-units-button");
  const sheet = sheetNamed(status);
  const answer = await raw.get<{ data: UnitEnvelope[] }>(`/comp_sets/${compSetId}/units`);
  // The answer as the add-in reads every answer (signed amounts such as "+10.00" become numbers, percents fractions).
  const units = unitsReader.read(answer, new FieldPath(unitsReader.endpoint)) as unknown as {
    data: UnitEnvelope[];
  };
  expect(await sheetValues(world.page, sheet)).toEqual(shownTable(unitsToTable(units.data)));
  expect(await sheetLayout(sheet)).toEqual({ tables: 1, frozenRows: 1 });
});

describe("bulk exports", () => {
  it.each(["csv", "jsonl", "parquet"] as const)(
    "runs a units export as %s for the selected ids and loads its file into a sheet",
    async (format) => {
      const { pane } = world;
      await openTab(world, "exports");
      await pane.locator("#job-report-type").selectOption("units");
      await pane.locator("#job-format").selectOption(format);
      await pane.locator("#job-start-date").fill("2026-01-01");
      await pane.locator("#job-end-date").fill("2026-01-03");
      // The ids come from cells selected in the grid, header included ("Use selected cells").
      await newSheet(world.page);
      await typeInto(world.page, "A1", "property_id");
      for (const [index, id] of propertyIds.entries())
        await typeInto(world.page, `A${index + 2}`, String(id));
      await world.page.locator('#grid td[data-address="A1"]').click();
      await world.page
        .locator(`#grid td[data-address="A${propertyIds.length + 1}"]`)
        .click({ modifiers: ["Shift"] });
      expect(await paneAction(world, "job-use-selection-button")).toBe(
        `Took ${propertyIds.length} property ids from the selection.`,
      );
      await expect(pane.locator("#job-property-ids textarea").inputValue()).resolves.toBe(
        propertyIds.join(", "),
      );
      const listed = () => pane.locator("#jobs-list li").evaluateAll((items) => items.map((item) => item.id));
      const before = await listed();
      await paneAction(world, "job-submit-button");
      const jobElementId = (await listed()).find((id) => !before.includes(id)) ?? "";
      expect(jobElementId).toMatch(/^job-./);
      const jobId = jobElementId.replace(/^job-/, "");
      await pane.locator(`#${jobElementId}[data-status="succeeded"]`).waitFor({ timeout: 30_000 });

      const { counters } = world.preview.sandbox;
      counters.reset();
      const status = await paneAction(world, `job-load-${jobId}`);
      // One request to the service for the file's place (the browser follows its redirect), one to the host.
      expect(counters.snapshot()).toEqual({
        "/v1/bulk_api/jobs/:job_id/results": 1,
        "download:/download/:jobId/:fileName": 1,
      });
      const sheet = sheetNamed(status);
      const file = await raw.download(`/bulk_api/jobs/${jobId}/results`);
      const parsed = await parseExportFile(file, format);
      const expected = shownTable(shapeTable(parsed.columns, parsed.rows));
      expect(expected.length).toBeGreaterThan(1);
      expect(await sheetValues(world.page, sheet)).toEqual(expected);
      expect(await sheetLayout(sheet)).toEqual({ tables: 1, frozenRows: 1 });
    },
  );
});

it("refreshes the sheet's RENT formulas, asking the service again only what could have changed", async () => {
  const { page, pane, preview } = world;
  const sheet = await newSheet(page);
  await typeInto(page, "A1", `=RENT.PROPERTY(${propertyIds[0]}, "asking_rent")`);
  await typeInto(page, "A3", "=RENT.COMPSETS()");
  await allCalculated(page);
  const before = [valuesOf(await shownAt(page, sheet, "A1")), valuesOf(await shownAt(page, sheet, "A3"))];

  await openTab(world, "workbook");
  await pane.locator("#refresh-scope").selectOption("sheet");
  const counters = preview.sandbox.counters;
  counters.reset();
  // Refresh settles when its cells have answered, and says so with the time and what it did: the property's
  // figures were fetched after the day's posting (current), a comp set list has no schedule (asked again).
  expect(await paneAction(world, "refresh-button")).toMatch(
    /^Refreshed 2 formulas at \d\d:\d\d: 1 answer fresh, 1 already current, 0 held, 0 failed\.$/,
  );
  await allCalculated(page);
  expect(counters.get("/v1/properties/bulk_details")).toBe(0);
  expect(counters.get("/v1/accounts/:account_id/comp_sets")).toBe(1);
  expect([valuesOf(await shownAt(page, sheet, "A1")), valuesOf(await shownAt(page, sheet, "A3"))]).toEqual(
    before,
  );
});

it("freezes the sheet's RENT formulas to their values and restores them", async () => {
  const { page, pane } = world;
  const sheet = await newSheet(page);
  await typeInto(page, "A1", "=RENT.COMPSETS()");
  await allCalculated(page);
  const calculated = valuesOf(await shownAt(page, sheet, "A1"));
  const formulaAtA1 = () =>
    page.evaluate(
      (name) => (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name).cell(0, 0)?.formula,
      sheet,
    );

  await openTab(world, "workbook");
  await pane.locator("#freeze-scope").selectOption("sheet");
  expect(await paneAction(world, "freeze-button")).toMatch(/^Replaced 1 RENT formula with its value/);
  expect(await formulaAtA1()).toBeUndefined();
  expect(await sheetValues(page, sheet)).toEqual(calculated);

  expect(await paneAction(world, "restore-button")).toMatch(
    /^Restoring puts back 1 RENT formula, which recalculate: up to 1 request \(/,
  );
  // The cost is said before anything is written: the formula waits for the confirm.
  expect(await formulaAtA1()).toBeUndefined();
  expect(await paneAction(world, "restore-confirm-button", "restore-button")).toBe(
    "Restored 1 RENT formula.",
  );
  expect(await formulaAtA1()).toBe("=RENT.COMPSETS()");
  expect(valuesOf(await shownAt(page, sheet, "A1"))).toEqual(calculated);
});

it("checks the connection from the browser: each endpoint family once, with the session's token", async () => {
  const status = await paneAction(world, "check-connection-button");

  const lines = await world.pane.locator("#connection-report li").allTextContents();
  expect(status).toBe("Connection check: every endpoint family asked answered (12 requests).");
  expect(lines[0]).toMatch(/at most 15 requests in all\.$/);
  expect(lines[1]).toMatch(/^skipped +Token /);
  const probes = lines.slice(2, 14);
  expect(probes).toHaveLength(12);
  for (const line of probes) expect(line).toMatch(/^ok 200 /);
  expect(lines).toContain(`12 of at most 15 requests sent to ${world.preview.sandbox.url}.`);
});

describe("the sign-in in the pane", () => {
  it("recalculates the cells for the account chosen in the pane", async () => {
    const { page, pane } = world;
    const accounts = (await raw.get<{ data: { id: number }[] }>("/accounts")).data.map(
      (account) => account.id,
    );
    const other = accounts.find((id) => id !== accountId) ?? 0;
    const compSetIds = async (account: number) =>
      (await raw.get<{ data: { id: string }[] }>(`/accounts/${account}/comp_sets`)).data.map((set) =>
        Number(set.id),
      );
    const sheet = await newSheet(page);
    await typeInto(page, "A1", "=RENT.COMPSETS()");
    const idColumn = async () =>
      valuesOf(await shownAt(page, sheet, "A1"))
        .slice(1)
        .map((row) => row[0]);
    expect(await idColumn()).toEqual(await compSetIds(accountId));

    const expected = await compSetIds(other);
    expect(expected[0]).not.toBe((await compSetIds(accountId))[0]);
    await openTab(world, "account");
    await pane.locator("#account-picker").selectOption(String(other));
    // The pane says what recalculating the workbook's RENT formulas costs, and changes the account once confirmed.
    await pane.locator("#account-confirm-button").click();
    // The pane recalculates the workbook: A2 shows the other account's first comp set once it is done.
    await page.waitForFunction(
      ([name, id]) =>
        (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name).cell(1, 0)?.value === id,
      [sheet, expected[0]] as const,
    );
    expect(await idColumn()).toEqual(expected);
    await pane.locator("#account-picker").selectOption(String(accountId));
    await pane.locator("#account-confirm-button").click();
    await pane.locator("#account-picker").evaluate(
      (picker, id) =>
        new Promise<void>((resolve) => {
          const settled = () =>
            (picker as HTMLSelectElement).value === id ? resolve() : setTimeout(settled, 50);
          settled();
        }),
      String(accountId),
    );
  });

  it("signs out, and signs in again with an access token instead of a secret", async () => {
    const { page, pane } = world;
    await pane.locator("#sign-out-button").click();
    const sheet = await newSheet(page);
    await typeInto(page, "A1", "=RENT.ACCOUNTS()");
    expect(await shownAt(page, sheet, "A1")).toEqual([
      [{ value: "#N/A", errorMessage: expect.stringContaining("Not signed in") }],
    ]);

    await tick(pane.locator("#method-manual"));
    await pane.locator("#access-token input").fill(raw.token);
    await pane.locator("#sign-in-button").click();
    await pane.locator("#signed-in-section").waitFor({ state: "visible" });
    await page.waitForFunction(
      (name) =>
        (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name).cell(0, 0)?.value === "id",
      sheet,
    );
    const accounts = await raw.get<{ data: { id: number; name: string }[] }>("/accounts");
    expect(valuesOf(await shownAt(page, sheet, "A1"))).toEqual([
      ["id", "name"],
      ...accounts.data.map((account) => [account.id, account.name]),
    ]);
  });
});
