/**
 * A warm workbook costs nothing: after a reload (the pane's runtime starts over, the workbook comes back as
 * saved) a new sign-in (typed, or by itself with a remembered secret) recalculates no cell that shows a value,
 * and recalculating every RENT cell is answered from IndexedDB: the sandbox counts the sign-in's token and
 * account list, nothing else.
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
  tick,
} from "./support/previewBrowser";

jest.setTimeout(60_000);

let world: PreviewBrowser;
/** The sheet of RENT formulas the first test fills, and what they showed once calculated. */
let sheet: string;
let calculated: CellValue[][][];

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

async function shownValues(): Promise<CellValue[][][]> {
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
  sheet = await newSheet(page);
  for (const [address, formula] of FORMULAS) await typeInto(page, address, formula);
  await allCalculated(page);
  calculated = await shownValues();
  expect(calculated.flat(2)).not.toContain("#N/A");
  expect(calculated[3]).toHaveLength(6);
  expect(counters.get("/v1/properties/bulk_details")).toBe(1);

  // The workbook comes back as saved, and nothing is invoked when it opens (as in Excel).
  await page.reload();
  await world.pane.locator("#sign-in-button").waitFor();
  await page.locator("#sheet-tabs .tab", { hasText: sheet }).click();
  expect(await shownValues()).toEqual(calculated);
  expect(await invocations()).toBe(0);

  // Signing in asks for a token and the account list, and recalculates nothing: every cell shows its value.
  counters.reset();
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  await allCalculated(page);
  expect(await invocations()).toBe(0);
  expect(Object.keys(counters.snapshot()).sort()).toEqual(["/oauth/token", "/v1/accounts"]);
  expect(await shownValues()).toEqual(calculated);

  // Calculate Now (application.calculate): every RENT cell is invoked again, and the service hears nothing.
  counters.reset();
  const before = await invocations();
  await page.locator("#calculate-button").click();
  await allCalculated(page);
  expect(await invocations()).toBeGreaterThanOrEqual(before + FORMULAS.length);
  expect(await shownValues()).toEqual(calculated);
  expect(counters.total()).toBe(0);
});

it("signs in by itself after a reload when the secret was remembered, and recalculates from IndexedDB", async () => {
  const { page, pane, preview } = world;
  const counters = preview.sandbox.counters;
  // Signing out removes the cached answers: the sign-in after it fills the cache again with Calculate Now.
  await pane.locator("#sign-out-button").click();
  await tick(pane.locator("#remember-secret"));
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  await page.locator("#calculate-button").click();
  await allCalculated(page);
  expect(await shownValues()).toEqual(calculated);

  counters.reset();
  await page.reload();
  await pane.locator("#signed-in-section").waitFor({ state: "visible" });
  // The sign-in with the kept secret has ended (its recalculation of what needs it included) when the pane says so.
  await pane.locator("#status", { hasText: /Signed in again with the kept secret/ }).waitFor();
  await page.locator("#sheet-tabs .tab", { hasText: sheet }).click();
  expect(await invocations()).toBe(0);
  expect(await shownValues()).toEqual(calculated);

  await page.locator("#calculate-button").click();
  await allCalculated(page);
  expect(await invocations()).toBeGreaterThanOrEqual(FORMULAS.length);
  expect(Object.keys(counters.snapshot()).sort()).toEqual(["/oauth/token", "/v1/accounts"]);
  expect(await shownValues()).toEqual(calculated);
});
