/**
 * "New sheet from template" in Chromium over the stand-in: each template adds a sheet whose RENT formulas all
 * resolve against the sandbox (no error values), and whose formulas follow its input cells when they change.
 */
import { ERROR_VALUES } from "../host/workbook/workbook";
import {
  SETUP_TIMEOUT_MS,
  allCalculated,
  openPreviewBrowser,
  openTabOf,
  paneAction,
  signIn,
  typeInto,
  type HostWindow,
  type PreviewBrowser,
} from "./support/previewBrowser";
import { rawService, type RawService } from "../support/rawService";

jest.setTimeout(90_000);

let world: PreviewBrowser;
let raw: RawService;
let accountId: number;

beforeAll(async () => {
  world = await openPreviewBrowser();
  raw = await rawService(world.preview.sandbox.url, "demo-proplus", "sandbox-secret-proplus");
  accountId = (await raw.get<{ data: { id: number }[] }>("/accounts")).data[0]?.id ?? 0;
  await signIn(world, "demo-proplus", "sandbox-secret-proplus");
}, SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

interface SheetCell {
  address: string;
  value: unknown;
  formula?: string;
  errorMessage?: string;
}

/** Every cell of a sheet that holds something, with its address. */
const cellsOf = (sheetName: string) =>
  world.page.evaluate((name) => {
    const sheet = (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name);
    const letters = (column: number): string =>
      column < 26
        ? String.fromCharCode(65 + column)
        : letters(Math.floor(column / 26) - 1) + letters(column % 26);
    return [...sheet.cells.entries()]
      .filter(([, cell]) => cell.value !== "" || cell.formula !== undefined)
      .map(([key, cell]) => {
        const [row = 0, column = 0] = key.split(",").map(Number);
        return {
          address: `${letters(column)}${row + 1}`,
          value: cell.value,
          formula: cell.formula,
          errorMessage: cell.errorMessage,
        };
      });
  }, sheetName);

interface NewSheet {
  sheet: string;
  /** RENT formulas, as the status line counts them. */
  formulas: number;
  /** Plain Excel formulas over them. */
  excelFormulas: number;
  status: string;
}

async function newSheetFromTemplate(template: string): Promise<NewSheet> {
  await openTabOf(world, "template-choice");
  await world.pane.locator("#template-choice").selectOption(template);
  const status = await paneAction(world, "template-button");
  const match = /the sheet "(.+)" with (\d+) RENT formulas?(?: and (\d+) Excel formulas?)?/.exec(status);
  expect(match).not.toBeNull();
  await allCalculated(world.page);
  return {
    sheet: match?.[1] ?? "",
    formulas: Number(match?.[2]),
    excelFormulas: Number(match?.[3] ?? 0),
    status,
  };
}

async function expectAllResolved(sheet: string, formulas: number, excelFormulas = 0): Promise<SheetCell[]> {
  const cells = await cellsOf(sheet);
  const formulaCells = cells.filter((cell) => cell.formula !== undefined);
  expect(formulaCells.length).toBe(formulas + excelFormulas);
  expect(formulaCells.filter((cell) => /RENT\./.test(cell.formula ?? "")).length).toBe(formulas);
  expect(cells.filter((cell) => ERROR_VALUES.has(String(cell.value)) || cell.value === "#BUSY!")).toEqual([]);
  return cells;
}

it("market comparison: every market by every metric resolves, and a market typed over is followed", async () => {
  const { sheet, formulas } = await newSheetFromTemplate("market-comparison");
  expect(formulas).toBeGreaterThanOrEqual(16);
  const cells = await expectAllResolved(sheet, formulas);
  expect(cells.find((cell) => cell.address === "B6")?.formula).toBe("=RENT.MARKET($A6, B$5)");

  const market = async (query: string) => {
    const found = await raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
      account_id: accountId,
      query,
      geo_type: ["MSA", "BespokeSubmarket"],
      limit: 1,
    });
    const id = found.data[0]?.attributes.id;
    const explored = await raw.post<{ data: { attributes: Record<string, unknown> }[] }>("/explore_markets", {
      account_id: accountId,
      market_filters: { geo_type: "MSA", geo_boundary_ids: [id] },
      limit: 1,
    });
    return explored.data[0]?.attributes ?? {};
  };
  const valueAt = async (address: string) =>
    (await cellsOf(sheet)).find((cell) => cell.address === address)?.value;
  expect(await valueAt("B6")).toBe((await market("Austin")).rent_avg_t30);
  await typeInto(world.page, "A6", "Atlanta");
  await allCalculated(world.page);
  expect(await valueAt("B6")).toBe((await market("Atlanta")).rent_avg_t30);
});

it("comp set survey with units: the property block, the survey and the units all resolve", async () => {
  const { sheet, formulas } = await newSheetFromTemplate("comp-set-survey");
  const cells = await expectAllResolved(sheet, formulas);
  const compSetId = cells.find((cell) => cell.address === "B4")?.value;
  const sets = await raw.get<{ data: { id: string; attributes: { property_ids: number[] } }[] }>(
    `/accounts/${accountId}/comp_sets`,
  );
  const compSet = sets.data.find((set) => Number(set.id) === compSetId);
  expect(compSet).toBeDefined();
  expect(cells.find((cell) => cell.address === "A8")?.value).toBe(compSet?.attributes.property_ids[0]);
  expect(cells.filter((cell) => cell.formula?.startsWith("=RENT.SURVEY($B$4)"))).toHaveLength(1);
  expect(cells.filter((cell) => cell.formula?.startsWith("=RENT.UNITS($B$4)"))).toHaveLength(1);
});

it("property forecast: the property's figures and its forecast resolve from the input cells", async () => {
  const { sheet, formulas } = await newSheetFromTemplate("property-forecast");
  const cells = await expectAllResolved(sheet, formulas);
  const forecast = cells.find((cell) => cell.formula?.startsWith("=RENT.FORECAST("));
  expect(forecast?.formula).toContain("$B$4");
  expect(forecast?.formula).toContain("$B$5, $B$6");
  expect(forecast?.value).toBe("date");
});

/** A sheet's cells by address. */
const valuesOf = async (sheet: string) =>
  new Map((await cellsOf(sheet)).map((cell) => [cell.address, cell] as const));

interface SeriesSource {
  name: string;
  values?: { row: number; column: number; rowCount: number; columnCount: number };
  xValues?: { row: number; column: number; rowCount: number; columnCount: number };
  lineStyle: string;
}

/** The charts of a sheet as the stand-in holds them: each series as the cells it reads. */
const chartsOf = (sheetName: string) =>
  world.page.evaluate(
    (name) =>
      (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name).charts.map((chart) => ({
        name: chart.name,
        series: chart.series.map((series) => ({
          name: series.name,
          values: series.values?.rect,
          xValues: series.xValues?.rect,
          lineStyle: series.lineStyle,
        })),
      })),
    sheetName,
  ) as Promise<{ name: string; series: SeriesSource[] }[]>;

const letter = (column: number) => String.fromCharCode(65 + column);

/** The rows of a spill anchored at `anchor` (header first), read from the sheet down to its first empty row. */
function spillRows(cells: Map<string, SheetCell>, anchor: string, columns: number): unknown[][] {
  const rows: unknown[][] = [];
  for (let row = Number(anchor.slice(1)); ; row++) {
    const shown = Array.from({ length: columns }, (_, c) => cells.get(`${letter(c)}${row}`)?.value ?? "");
    if (shown.every((value) => value === "")) return rows;
    rows.push(shown);
  }
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

it("rent comps: the subject beside its comp average, TruComp differentials, a chart, and another comp set followed", async () => {
  const made = await newSheetFromTemplate("rent-comps");
  expect(made.excelFormulas).toBeGreaterThan(30);
  expect(made.status).toContain('The chart "RENT rent by size A25"');
  await expectAllResolved(made.sheet, made.formulas, made.excelFormulas);

  const check = async () => {
    const cells = await valuesOf(made.sheet);
    const value = (address: string) => cells.get(address)?.value;
    const survey = spillRows(cells, "A25", 9);
    const header = survey[0] as string[];
    const subject = survey.find((row) => row[0] === value("B5")) as unknown[];
    const average = survey.find((row) => row[1] === "Comp average") as unknown[];
    expect(subject[2]).toBe(true);
    for (let row = 8; row <= 12; row++) {
      const column = header.indexOf(String(value(`A${row}`)));
      const [s, c] = [subject[column] as number, average[column] as number];
      expect(value(`B${row}`)).toBeCloseTo(s, 9);
      expect(value(`C${row}`)).toBeCloseTo(c, 9);
      expect(value(`D${row}`)).toBeCloseTo(s - c, 9);
      expect(value(`E${row}`)).toBeCloseTo(s / c - 1, 9);
    }
    expect(value("B13")).toBe(subject[8] === "" ? "none" : subject[8]);

    // TruComp rows: bedroom counts 0 to 4, then all, over the units spill's TruComp units.
    const unitsAnchor =
      [...cells.values()].find((cell) => cell.formula?.startsWith("=RENT.UNITS("))?.address ?? "";
    const units = spillRows(cells, unitsAnchor, 10).slice(1);
    expect(units.length).toBeGreaterThan(0);
    for (let row = 17; row <= 22; row++) {
      const bedrooms = value(`A${row}`);
      const group = units.filter((unit) => unit[6] === true && (bedrooms === "all" || unit[3] === bedrooms));
      expect(value(`B${row}`)).toBe(group.length);
      [7, 8, 9].forEach((column, index) => {
        const shown = value(`${letter(2 + index)}${row}`);
        if (group.length === 0) expect(shown).toBe("none");
        else expect(shown).toBeCloseTo(mean(group.map((unit) => unit[column] as number)), 9);
      });
    }
    expect(units.some((unit) => unit[6] === true)).toBe(true);

    // The chart: rent (avg_rent, column D) against size (avg_sq_ft, column E) over every survey row, the subject's own.
    const [chart, ...others] = await chartsOf(made.sheet);
    expect(others).toEqual([]);
    const series = chart?.series ?? [];
    expect(series.every((each) => each.values?.column === 3 && each.xValues?.column === 4)).toBe(true);
    const covered = series.flatMap((each) =>
      Array.from({ length: each.values?.rowCount ?? 0 }, (_, i) => (each.values?.row ?? 0) + i),
    );
    expect(covered).toEqual(Array.from({ length: survey.length - 1 }, (_, i) => 25 + i));
    const subjectRow = 24 + survey.indexOf(subject);
    expect(series.find((each) => each.name.startsWith("Subject"))?.values?.row).toBe(subjectRow);
    return { subjectRent: value("B8"), subject };
  };

  const first = await check();
  // The survey's subject rent is the service's.
  const compSetId = (await valuesOf(made.sheet)).get("B4")?.value;
  const answer = await raw.get<{ data: { attributes: { market_survey_items: Record<string, unknown>[] } } }>(
    `/comp_sets/${String(compSetId)}/market_survey`,
  );
  const item = answer.data.attributes.market_survey_items.find(
    (each) => (each.id ?? each.property_id) === first.subject[0],
  );
  expect(first.subjectRent).toBe(item?.avg_rent);

  // Another comp set and its subject typed into the inputs: every figure follows.
  const sets = await raw.get<{ data: { id: string; attributes: { subject_property_ids: number[] } }[] }>(
    `/accounts/${accountId}/comp_sets`,
  );
  const other = sets.data.find(
    (set) => Number(set.id) !== compSetId && set.attributes.subject_property_ids.length > 0,
  );
  expect(other).toBeDefined();
  await typeInto(world.page, "B4", String(other?.id));
  await typeInto(world.page, "B5", String(other?.attributes.subject_property_ids[0]));
  await allCalculated(world.page);
  await expectAllResolved(made.sheet, made.formulas, made.excelFormulas);
  const second = await check();
  expect(second.subject[0]).toBe(other?.attributes.subject_property_ids[0]);
  expect(second.subjectRent).not.toBe(first.subjectRent);
});

it("five-year projection: each forward year's 12 months, gross potential rent, a chart, and another property followed", async () => {
  const made = await newSheetFromTemplate("rent-projection");
  expect(made.status).toContain('The chart "RENT forecast A18"');
  await expectAllResolved(made.sheet, made.formulas, made.excelFormulas);

  const check = async () => {
    const cells = await valuesOf(made.sheet);
    const value = (address: string) => cells.get(address)?.value;
    const monthly = spillRows(cells, "A18", 4);
    expect(monthly).toHaveLength(61);
    const months = monthly.slice(1);
    const units = value("B5") as number;
    for (let year = 1; year <= 5; year++) {
      const row = 9 + year;
      const own = months.slice((year - 1) * 12, year * 12);
      expect(value(`B${row}`)).toBe(own[0]?.[0]);
      expect(value(`D${row}`)).toBe(12);
      [1, 2, 3].forEach((column, index) => {
        const rent = mean(own.map((month) => month[column] as number));
        expect(value(`${letter(4 + index)}${row}`)).toBeCloseTo(rent, 9);
        expect(value(`${letter(7 + index)}${row}`)).toBeCloseTo(rent * units * 12, 6);
      });
    }
    // The chart: downside dashed, base, upside dashed, each over the 60 months, dates along the x axis.
    const [chart, ...others] = await chartsOf(made.sheet);
    expect(others).toEqual([]);
    const rect = (column: number) => ({ row: 18, column, rowCount: 60, columnCount: 1 });
    expect(chart?.series.map((each) => [each.values, each.xValues, each.lineStyle])).toEqual([
      [rect(2), rect(0), "Dash"],
      [rect(1), rect(0), "Continuous"],
      [rect(3), rect(0), "Dash"],
    ]);
    return { year1: value("E10"), units };
  };

  const first = await check();
  // The unit count is the property's own.
  const propertyId = (await valuesOf(made.sheet)).get("B4")?.value as number;
  const record = await raw.get<{ data: { attributes: Record<string, unknown> }[] }>(
    "/properties/bulk_details",
    {
      account_id: accountId,
      property_ids: String(propertyId),
    },
  );
  expect(first.units).toBe(record.data[0]?.attributes.unit_count);

  // Another property: its forecast and its units; then a unit count typed over the formula.
  const sets = await raw.get<{ data: { attributes: { property_ids: number[] } }[] }>(
    `/accounts/${accountId}/comp_sets`,
  );
  const another = sets.data.flatMap((set) => set.attributes.property_ids).find((id) => id !== propertyId);
  await typeInto(world.page, "B4", String(another));
  await allCalculated(world.page);
  await expectAllResolved(made.sheet, made.formulas, made.excelFormulas);
  const second = await check();
  expect(second.year1).not.toBe(first.year1);
  await typeInto(world.page, "B5", "150");
  await allCalculated(world.page);
  expect((await check()).units).toBe(150);
});
