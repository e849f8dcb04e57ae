/**
 * A warm workbook costs nothing: after a reload (the pane's runtime starts over, the workbook comes back as
 * saved) and a new sign-in (typed, or by itself with a remembered secret), recalculating every RENT cell is
 * answered from IndexedDB: the sandbox counts the sign-in's token and account list, nothing else.
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

/** Waits until the pane's recalculation after a sign-in has invoked the formulas and they have answered. */
async function recalculatedAfterSignIn(): Promise<void> {
  await world.page.waitForFunction(() => {
    const host = (window as unknown as HostWindow).rentMarketHost;
    return [...host.calculator.invocationCounts.values()].reduce((sum, count) => sum + count, 0) > 0;
  });
  await allCalculated(world.page);
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

  // Signing in asks for a token and the account list; the recalculation it starts is served from the cache.
  counters.reset();
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  await recalculatedAfterSignIn();
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
  await pane.locator("#sign-out-button").click();
  await tick(pane.locator("#remember-secret"));
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  await allCalculated(page);

  counters.reset();
  await page.reload();
  await pane.locator("#signed-in-section").waitFor({ state: "visible" });
  await recalculatedAfterSignIn();
  expect(Object.keys(counters.snapshot()).sort()).toEqual(["/oauth/token", "/v1/accounts"]);
  expect(await shownValues()).toEqual(calculated);
});
