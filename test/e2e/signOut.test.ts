/**
 * Sign-out keeps the sheet: every cell keeps what it shows (nothing is recalculated, nothing turns #N/A), a
 * cell still calculating at sign-out stays so rather than failing, and the next sign-in recalculates only the
 * cells that show no answer. Run in the preview: the real built add-in in the host stand-in, against the sandbox.
 */
import type { Request } from "playwright-core";
import type { CellValue } from "../host/workbook/workbook";
import {
  CELL_TIMEOUT_MS,
  SETUP_TIMEOUT_MS,
  allCalculated,
  newSheet,
  openPreviewBrowser,
  openTab,
  paneAction,
  shownAt,
  sheetValues,
  signIn,
  typeInto,
  type HostWindow,
  type PreviewBrowser,
} from "./support/previewBrowser";

jest.setTimeout(90_000);

let world: PreviewBrowser;
let sheet: string;
/** The sheet as calculated before any sign-out. */
let calculated: CellValue[][];

const FORMULAS: [string, string][] = [
  ["A1", "=RENT.COMPSETS()"],
  ["A6", '=RENT.BOUNDARIES("Austin", "MSA", 3)'],
  ["A12", '=RENT.MARKET(RENT.BOUNDARY("Austin", "MSA"), "rent_avg_t30")'],
  ["A14", '=RENT.LOOKUP("city=Austin; max_results=5")'],
  ["C14", '=RENT.PROPERTY(A15:A19, "asking_rent")'],
];

beforeAll(async () => {
  world = await openPreviewBrowser();
  const sandboxUrl = world.preview.sandbox.url;
  world.page.on("request", (request) => {
    if (request.url().startsWith(sandboxUrl)) toTheSandbox.add(request);
  });
  world.page.on("requestfinished", (request) => void toTheSandbox.delete(request));
  world.page.on("requestfailed", (request) => void toTheSandbox.delete(request));
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  sheet = await newSheet(world.page);
  for (const [address, formula] of FORMULAS) await typeInto(world.page, address, formula);
  await allCalculated(world.page);
  calculated = await sheetValues(world.page, sheet);
}, SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

/** Custom function calls the host has made so far. */
const invocations = () =>
  world.page.evaluate(() =>
    [...(window as unknown as HostWindow).rentMarketHost.calculator.invocationCounts.values()].reduce(
      (sum, count) => sum + count,
      0,
    ),
  );

/** Requests of the page (and its pane) to the sandbox that have neither been answered nor failed yet. */
const toTheSandbox = new Set<Request>();

/**
 * Waits until every request the page sent the sandbox has been answered or dropped, and the page has had a
 * turn of its event loop in every frame to act on the answers (instead of a fixed sleep past the latency).
 */
async function answersArrived(): Promise<void> {
  for (let waited = 0; toTheSandbox.size > 0; waited += 20) {
    if (waited > 30_000) throw new Error(`Still on the wire: ${[...toTheSandbox].map((r) => r.url())}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (let turn = 0; turn < 2; turn++)
    for (const frame of world.page.frames())
      await frame.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0))).catch(() => undefined);
}

async function signOut(): Promise<void> {
  await openTab(world, "account");
  await world.pane.locator("#sign-out-button").click();
  await world.pane.locator("#sign-in-section").waitFor({ state: "visible" });
  // The sign-out has ended (the cache is removed) when the pane says so.
  await world.pane.locator("#status", { hasText: /signed out/i }).waitFor();
}

/** Every cell value of every sheet, flattened. */
const everyValue = () =>
  world.page.evaluate(() =>
    (window as unknown as HostWindow).rentMarketHost.workbook.sheets.flatMap((target) =>
      [...target.cells.values()].map((cell) => cell.value),
    ),
  );

it("sign-out leaves every cell's value and recalculates nothing; signing in again recalculates nothing", async () => {
  const counters = world.preview.sandbox.counters;
  expect(calculated.flat()).not.toContain("#N/A");
  const before = await invocations();

  await signOut();
  expect(await sheetValues(world.page, sheet)).toEqual(calculated);
  expect(await invocations()).toBe(before);

  counters.reset();
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  await allCalculated(world.page);
  expect(await invocations()).toBe(before);
  expect(await sheetValues(world.page, sheet)).toEqual(calculated);
  // The token, the account list, and the pane's own list of the account's comp sets: no cell asked for anything.
  expect(Object.keys(counters.snapshot()).sort()).toEqual([
    "/oauth/token",
    "/v1/accounts",
    "/v1/accounts/:account_id/comp_sets",
  ]);
});

it("a cell typed while signed out says so, and the next sign-in recalculates that cell alone", async () => {
  await signOut();
  await typeInto(world.page, "A30", '=RENT.MARKET(RENT.BOUNDARY("Austin", "MSA"), "rent_avg_t30")');
  const signedOut = await shownAt(world.page, sheet, "A30");
  expect(signedOut[0]?.[0]).toMatchObject({
    value: "#N/A",
    errorMessage: expect.stringMatching(/Not signed in/),
  });
  const before = await invocations();

  await signIn(world, "demo-pro", "sandbox-secret-pro");
  await allCalculated(world.page);
  // A30's formula calls two functions (RENT.MARKET of RENT.BOUNDARY): nothing else was invoked.
  expect(await invocations()).toBe(before + 2);
  expect((await shownAt(world.page, sheet, "A30"))[0]?.[0]?.value).toBe(calculated[11]?.[0]);
  expect((await sheetValues(world.page, sheet)).slice(0, calculated.length)).toEqual(calculated);
});

it("a sign-out during a refresh leaves its cells calculating, never #N/A, and the next sign-in finishes them", async () => {
  const { sandbox } = world.preview;
  const now = await sheetValues(world.page, sheet);
  // Every request takes a while: the refresh's cells are still waiting when the person signs out.
  sandbox.faults.update({ latencyMs: 1500 });
  try {
    await openTab(world, "workbook");
    await world.pane.locator("#refresh-button").click();
    await world.page.waitForFunction(() =>
      (window as unknown as HostWindow).rentMarketHost.workbook.sheets.some((target) =>
        [...target.cells.values()].some((cell) => cell.value === "#BUSY!"),
      ),
    );
    await signOut();
    // The requests the cells were waiting for have been answered (or dropped), after the sign-out.
    await answersArrived();
  } finally {
    sandbox.faults.update({ latencyMs: 0 });
  }
  const shown = await everyValue();
  expect(shown).not.toContain("#N/A");
  expect(shown).toContain("#BUSY!");
  // The function calls of the formulas left calculating (RENT.MARKET of RENT.BOUNDARY is two).
  const waitingCalls = await world.page.evaluate(() =>
    (window as unknown as HostWindow).rentMarketHost.workbook.sheets
      .flatMap((target) => [...target.cells.values()])
      .filter((cell) => cell.value === "#BUSY!")
      .reduce((sum, cell) => sum + (cell.formula?.match(/RENT\./gi)?.length ?? 0), 0),
  );

  const before = await invocations();
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  await allCalculated(world.page);
  expect(await sheetValues(world.page, sheet)).toEqual(now);
  // The cells left calculating were entered again, and no other; RENT.PROPERTY of the lookup's ids may run
  // once more when the lookup's new answer arrives, as any dependent formula does.
  const called = (await invocations()) - before;
  expect(called).toBeGreaterThanOrEqual(waitingCalls);
  expect(called).toBeLessThanOrEqual(waitingCalls + 1);
  // The refresh the sign-out interrupted ends once its cells have their answers, and says what it did.
  await world.pane
    .locator("#refresh-button:not([disabled]):not([aria-busy])")
    .waitFor({ state: "attached", timeout: CELL_TIMEOUT_MS });
  await expect(world.pane.locator("#status").textContent()).resolves.toMatch(/^Refreshed \d+ formulas at /);
});

it("Restore formulas refuses while signed out and changes no cell; signed in, it says the cost, then restores", async () => {
  await allCalculated(world.page);
  const rentFormulas = () =>
    world.page.evaluate(
      (name) =>
        [...(window as unknown as HostWindow).rentMarketHost.workbook.sheet(name).cells.values()].filter(
          (cell) => /RENT\./i.test(cell.formula ?? ""),
        ).length,
      sheet,
    );
  const formulas = await rentFormulas();
  await openTab(world, "workbook");
  await world.pane.locator("#freeze-scope").selectOption("sheet");
  expect(await paneAction(world, "freeze-button")).toMatch(/^Replaced \d+ RENT formulas with their values\./);
  const frozen = await sheetValues(world.page, sheet);
  expect(await rentFormulas()).toBe(0);

  await signOut();
  await expect(paneAction(world, "restore-button")).rejects.toThrow(
    `The pane says: Sign in first: restoring puts back ${formulas} formulas, which recalculate.`,
  );
  expect(await sheetValues(world.page, sheet)).toEqual(frozen);
  expect(await rentFormulas()).toBe(0);

  await signIn(world, "demo-pro", "sandbox-secret-pro");
  const cost = await paneAction(world, "restore-button");
  expect(cost).toMatch(
    new RegExp(`^Restoring puts back ${formulas} RENT formulas, which recalculate: up to \\d+ requests \\(`),
  );
  // Said, not done: nothing is written until the person confirms.
  expect(await rentFormulas()).toBe(0);
  expect(await paneAction(world, "restore-confirm-button", "restore-button")).toBe(
    `Restored ${formulas} RENT formulas.`,
  );
  expect(await rentFormulas()).toBe(formulas);
  expect(await sheetValues(world.page, sheet)).toEqual(frozen);
});
