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

async function newSheetFromTemplate(template: string): Promise<{ sheet: string; formulas: number }> {
  await openTabOf(world, "template-choice");
  await world.pane.locator("#template-choice").selectOption(template);
  const status = await paneAction(world, "template-button");
  const match = /the sheet "(.+)" with (\d+) RENT formula/.exec(status);
  expect(match).not.toBeNull();
  await allCalculated(world.page);
  return { sheet: match?.[1] ?? "", formulas: Number(match?.[2]) };
}

async function expectAllResolved(sheet: string, formulas: number): Promise<SheetCell[]> {
  const cells = await cellsOf(sheet);
  const formulaCells = cells.filter((cell) => cell.formula !== undefined);
  expect(formulaCells.length).toBe(formulas);
  expect(formulaCells.every((cell) => /^=RENT\./.test(cell.formula ?? ""))).toBe(true);
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
