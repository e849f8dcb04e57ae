/**
 * A warm workbook costs nothing: after a reload (the pane's runtime starts over, the workbook comes back as
 * saved) and a new sign-in, recalculating every RENT cell is answered from IndexedDB, with zero requests
 * counted at the sandbox.
 */
import type { CellValue } from "../host/workbook/workbook";
import {
  SETUP_TIMEOUT_MS,
  allCalculated,
  newSheet,
  openPreviewBrowser,
  shownAt,
  signIn,
  typeInto,
  valuesOf,
  type HostWindow,
  type PreviewBrowser,
} from "./support/previewBrowser";

jest.setTimeout(60_000);

let world: PreviewBrowser;

beforeAll(async () => {
  world = await openPreviewBrowser();
}, SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

const FORMULAS: [string, string][] = [
  ["A1", "=RENT.COMPSETS()"],
  ["A6", '=RENT.BOUNDARIES("Austin", "MSA", 3)'],
  ["A12", '=RENT.MARKET(RENT.BOUNDARY("Austin", "MSA"), "rent_avg_t30")'],
  ["A14", '=RENT.LOOKUP("city=Austin; max_results=5")'],
  ["C14", '=RENT.PROPERTY(A15:A19, "asking_rent")'],
];

async function shownValues(sheet: string): Promise<CellValue[][][]> {
  const shown: CellValue[][][] = [];
  for (const [address] of FORMULAS) shown.push(valuesOf(await shownAt(world.page, sheet, address)));
  return shown;
}

const invocations = () =>
  world.page.evaluate(() =>
    [...(window as unknown as HostWindow).rentMarketHost.calculator.invocationCounts.values()].reduce(
      (sum, count) => sum + count,
      0,
    ),
  );

it("recalculates a reloaded workbook from IndexedDB with zero requests to the service", async () => {
  const { page, preview } = world;
  const counters = preview.sandbox.counters;
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  const sheet = await newSheet(page);
  for (const [address, formula] of FORMULAS) await typeInto(page, address, formula);
  await allCalculated(page);
  const calculated = await shownValues(sheet);
  expect(calculated.flat(2)).not.toContain("#N/A");
  expect(calculated[3]).toHaveLength(6);
  expect(counters.get("/v1/properties/bulk_details")).toBe(1);

  // The workbook comes back as saved, and nothing is invoked when it opens (as in Excel).
  await page.reload();
  await world.pane.locator("#sign-in-button").waitFor();
  await page.locator("#sheet-tabs .tab", { hasText: sheet }).click();
  expect(await shownValues(sheet)).toEqual(calculated);
  expect(await invocations()).toBe(0);

  // Signing in asks for a token and the account list; the recalculation it starts is served from the cache.
  counters.reset();
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  await page.waitForFunction(() => {
    const host = (window as unknown as HostWindow).rentMarketHost;
    return [...host.calculator.invocationCounts.values()].reduce((sum, count) => sum + count, 0) > 0;
  });
  await allCalculated(page);
  expect(Object.keys(counters.snapshot()).sort()).toEqual(["/oauth/token", "/v1/accounts"]);
  expect(await shownValues(sheet)).toEqual(calculated);

  // Calculate Now (application.calculate): every RENT cell is invoked again, and the service hears nothing.
  counters.reset();
  const before = await invocations();
  await page.locator("#calculate-button").click();
  await allCalculated(page);
  expect(await invocations()).toBeGreaterThanOrEqual(before + FORMULAS.length);
  expect(await shownValues(sheet)).toEqual(calculated);
  expect(counters.total()).toBe(0);
});
