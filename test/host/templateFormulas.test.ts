/**
 * The rent comps and five-year projection templates, written by the add-in's own code (src/excel/templates)
 * into the stand-in, with RENT functions played by fakes whose answers follow their arguments: every plain
 * formula answers what the spills hold, follows the input cells, and says so where the data falls short (a year
 * the forecast does not reach, a bedroom count without TruComp units).
 */
import { parseCellAddress } from "../../src/excel/a1";
import { rentComps, RENT_COMPS_METRICS } from "../../src/excel/templates/rentComps";
import { rentProjection, PROJECTION_YEARS } from "../../src/excel/templates/rentProjection";
import { writeTemplate, type SheetTemplate } from "../../src/excel/templates/sheetTemplate";
import { chartTemplateBlocks } from "../../src/excel/templates/templateCharts";
import { Calculator } from "./page/calculator";
import { HOST_PROFILES } from "./profiles";
import { excelNamespace, type StandInRequestContext } from "./standin/excelApi";
import type { HostBridge } from "./standin/hostBridge";
import { officeNamespace } from "./standin/office";
import { ERROR_VALUES, Workbook } from "./workbook/workbook";

const optional = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ name: `p${i}`, optional: true }));

/** Months the fake forecast has: a test shortens it to see a year it does not reach. */
let forecastMonths = 60;

/** Forecast rent of property `id` in month `m`: base, downside, upside. */
const monthRent = (id: number, m: number) => [id + 10 * m, id + 10 * m - 50, id + 10 * m + 40];

function monthSerial(m: number): number {
  const date = new Date(Date.UTC(2026, 2 + m, 1));
  return (date.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000;
}

/** A comp set's survey: property ids id*10+k, the subject k = 0, then the comp average row. */
function survey(compSetId: number): unknown[][] {
  const rows = [0, 1, 2].map((k) => [
    compSetId * 10 + k,
    `Property ${k}`,
    k === 0,
    1000 + compSetId + 100 * k,
    800 + 10 * k,
    (1000 + compSetId + 100 * k) / (800 + 10 * k),
    0.01 * k,
    0.9 + 0.01 * k,
    k === 0 ? "" : `${k} weeks free`,
  ]);
  const average = ["", "Comp average", "", 1100 + compSetId, 810, 1.3, 0.01, 0.91, ""];
  return [
    [
      "property_id",
      "property_name",
      "subject_property",
      "avg_rent",
      "avg_sq_ft",
      "avg_rent_per_sq_ft",
      "concession_percentage",
      "leased_percent",
      "concessions",
    ],
    ...rows,
    average,
  ];
}

/** Units: one-bedroom TruComp units with differentials that follow the comp set id; no two-bedroom TruComp. */
function units(compSetId: number): unknown[][] {
  return [
    [
      "property_id",
      "property_name",
      "unit_name",
      "bedroom_count",
      "sq_ft",
      "min_rent",
      "is_trucomp",
      "trucomp_rent_differential",
      "trucomp_sq_ft_differential",
      "trucomp_rent_per_sq_ft_differential",
    ],
    [1, "A", "101", 1, 700, 1500, true, compSetId, 10, 0.1],
    [1, "A", "102", 1, 720, 1550, true, compSetId + 20, 30, 0.3],
    [2, "B", "201", 2, 1000, 2000, false, "", "", ""],
    [3, "C", "001", 0, 500, 1200, true, -40, -5, -0.05],
  ];
}

function host() {
  const profile = HOST_PROFILES["m365-windows"];
  const workbook = new Workbook();
  const calculator = new Calculator(
    workbook,
    "RENT",
    [
      { id: "PROPERTY", name: "PROPERTY", parameters: [{ name: "id" }, ...optional(1)] },
      { id: "FORECAST", name: "FORECAST", parameters: [{ name: "id" }, ...optional(8)] },
      { id: "SURVEY", name: "SURVEY", parameters: [{ name: "id" }, ...optional(2)] },
      { id: "UNITS", name: "UNITS", parameters: [{ name: "id" }, ...optional(6)] },
    ],
    profile,
  );
  calculator.registerFunction("PROPERTY", async (id, field) =>
    field === "unit_count" ? Number(id) % 1000 : `Property ${String(id)}`,
  );
  calculator.registerFunction("FORECAST", async (id) => [
    [
      "date",
      "forecast rent (rent_growth_rate_yoy)",
      "forecast rent (rent_growth_rate_yoy_downside)",
      "forecast rent (rent_growth_rate_yoy_upside)",
    ],
    ...Array.from({ length: forecastMonths }, (_, m) => [monthSerial(m), ...monthRent(Number(id), m)]),
  ]);
  calculator.registerFunction("SURVEY", async (id) => survey(Number(id)));
  calculator.registerFunction("UNITS", async (id) => units(Number(id)));
  const bridge: HostBridge = {
    workbook,
    profile,
    outside: { browserWindows: [], windowOpens: [], blobDownloads: [] },
    registerFunction: (id, implementation) => calculator.registerFunction(id, implementation),
  };
  const excel = excelNamespace(bridge);
  Object.assign(globalThis, { Office: officeNamespace(bridge) });
  const run = <T>(batch: (context: Excel.RequestContext) => Promise<T>) =>
    excel.run((context: StandInRequestContext) => batch(context as unknown as Excel.RequestContext));
  const write = async (template: SheetTemplate) => {
    const written = await run((context) => writeTemplate(context, template));
    const charts = await chartTemplateBlocks(run, written.sheetName, template.charts ?? [], {
      timeoutMs: 10_000,
      pollMs: 5,
    });
    return { ...written, charts };
  };
  const calculated = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    while (calculator.calculatingCount() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  return { workbook, write, calculated };
}

afterEach(() => {
  delete (globalThis as { Office?: unknown }).Office;
  forecastMonths = 60;
});

function sheetOf(workbook: Workbook, name: string) {
  const sheet = workbook.sheet(name);
  const at = (address: string) => {
    const { row, column } = parseCellAddress(address);
    return sheet.cell(row, column);
  };
  const value = (address: string) => at(address)?.value;
  const enter = (address: string, input: string | number) => {
    const { row, column } = parseCellAddress(address);
    workbook.enter(name, row, column, input);
  };
  const errors = () =>
    [...sheet.cells.values()].filter(
      (cell) => ERROR_VALUES.has(String(cell.value)) || cell.value === "#BUSY!",
    );
  return { at, value, enter, errors };
}

const average = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

describe("five-year rent projection", () => {
  it("averages each forward year's own 12 months and makes gross potential rent = rent x units x 12", async () => {
    const { workbook, write, calculated } = host();
    const written = await write(rentProjection({ propertyId: 100123 }));
    await calculated();
    const { value, enter, errors } = sheetOf(workbook, written.sheetName);
    expect(errors()).toEqual([]);
    // The chart: downside, base and upside, each over the spill's 60 months, dates along the x axis.
    expect(written.charts).toEqual([{ at: "A18", chartName: "RENT forecast A18" }]);
    const [chart] = workbook.sheet(written.sheetName).charts;
    const months = { row: 18, rowCount: 60, columnCount: 1 };
    expect(
      chart?.series.map((series) => [series.values?.rect, series.xValues?.rect, series.lineStyle]),
    ).toEqual([
      [{ ...months, column: 2 }, { ...months, column: 0 }, "Dash"],
      [{ ...months, column: 1 }, { ...months, column: 0 }, "Continuous"],
      [{ ...months, column: 3 }, { ...months, column: 0 }, "Dash"],
    ]);

    const check = (id: number, unitCount: number) => {
      for (let year = 1; year <= PROJECTION_YEARS; year++) {
        const row = 9 + year;
        const months = Array.from({ length: 12 }, (_, i) => (year - 1) * 12 + i);
        expect(value(`B${row}`)).toBe(monthSerial(months[0] as number));
        // The last day of the year's last month.
        expect(value(`C${row}`)).toBe(monthSerial((months[11] as number) + 1) - 1);
        expect(value(`D${row}`)).toBe(12);
        [0, 1, 2].forEach((bound, index) => {
          const rent = average(months.map((m) => monthRent(id, m)[bound] as number));
          expect(value(`${"EFG"[index]}${row}`)).toBeCloseTo(rent, 9);
          expect(value(`${"HIJ"[index]}${row}`)).toBeCloseTo(rent * unitCount * 12, 6);
        });
        expect(value(`K${row}`)).toBe("");
      }
    };
    check(100123, 123);
    // A new property: its forecast and its unit count; then a unit count typed over the formula.
    enter("B4", 100456);
    await calculated();
    check(100456, 456);
    enter("B5", 200);
    await calculated();
    check(100456, 200);
    expect(errors()).toEqual([]);
  });

  it("gives a year the forecast does not reach in full #N/A and says how many of its months it has", async () => {
    forecastMonths = 40;
    const { workbook, write, calculated } = host();
    const written = await write(rentProjection({ propertyId: 100123 }));
    await calculated();
    const { value } = sheetOf(workbook, written.sheetName);
    expect(value("D12")).toBe(12);
    expect(value("E12")).not.toBe("#N/A");
    // Year 4 has months 37 to 40 only; year 5 none.
    expect([value("D13"), value("E13"), value("H13")]).toEqual([4, "#N/A", "#N/A"]);
    expect(value("K13")).toBe("the forecast reaches 4 of this year's 12 months");
    expect([value("D14"), value("B14"), value("E14"), value("K14")]).toEqual([
      0,
      "#N/A",
      "#N/A",
      "the forecast reaches 0 of this year's 12 months",
    ]);
  });
});

describe("rent comps", () => {
  it("sets the subject beside the comp average and averages TruComp differentials by bedroom count", async () => {
    const { workbook, write, calculated } = host();
    const written = await write(rentComps({ compSetId: 7, subjectId: 70, propertyCount: 3 }));
    await calculated();
    const { value, enter, errors } = sheetOf(workbook, written.sheetName);
    expect(errors()).toEqual([]);
    // The chart: rent against size from the survey, the subject (its first row), the comps, the comp average.
    expect(written.charts).toEqual([{ at: "A25", chartName: "RENT rent by size A25" }]);
    const [chart] = workbook.sheet(written.sheetName).charts;
    const column = (index: number, row: number, rowCount: number) => ({
      row,
      column: index,
      rowCount,
      columnCount: 1,
    });
    expect(chart?.series.map((series) => [series.name, series.values?.rect, series.xValues?.rect])).toEqual([
      ["Subject: Property 0", column(3, 25, 1), column(4, 25, 1)],
      ["Comps", column(3, 26, 2), column(4, 26, 2)],
      ["Comp average", column(3, 28, 1), column(4, 28, 1)],
    ]);

    const check = (compSetId: number, subjectK: number) => {
      const table = survey(compSetId);
      const subject = table[1 + subjectK] as unknown[];
      const comp = table[4] as unknown[];
      RENT_COMPS_METRICS.forEach((metric, index) => {
        const row = 8 + index;
        const column = (table[0] as string[]).indexOf(metric);
        const [s, c] = [subject[column] as number, comp[column] as number];
        expect(value(`A${row}`)).toBe(metric);
        expect(value(`B${row}`)).toBeCloseTo(s, 9);
        expect(value(`C${row}`)).toBeCloseTo(c, 9);
        expect(value(`D${row}`)).toBeCloseTo(s - c, 9);
        expect(value(`E${row}`)).toBeCloseTo(s / c - 1, 9);
      });
      expect(value("B13")).toBe(subjectK === 0 ? "none" : `${subjectK} weeks free`);
      // Bedroom rows 0..4, then all: counts and the rent differential's average.
      expect([17, 18, 19, 20, 21, 22].map((row) => value(`B${row}`))).toEqual([1, 2, 0, 0, 0, 3]);
      expect(value("C18")).toBeCloseTo(compSetId + 10, 9);
      expect(value("D18")).toBeCloseTo(20, 9);
      expect(value("C19")).toBe("none");
      expect(value("C22")).toBeCloseTo((compSetId + compSetId + 20 - 40) / 3, 9);
    };
    check(7, 0);
    // Another comp set, and a subject typed in: every figure follows.
    enter("B4", 9);
    enter("B5", 92);
    await calculated();
    check(9, 2);
    expect(errors()).toEqual([]);
  });
});
