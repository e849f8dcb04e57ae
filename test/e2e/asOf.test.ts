/**
 * As-of in Chromium over the host stand-in: the pane shows, for the selected cell, its formula's requests (from
 * the service, then from the cache), when they were fetched, the data's date and until when it is fresh;
 * Freeze writes the as-of beside the values (a comment) and Restore takes it away with the values; Refresh ends
 * with "Refreshed N formulas at HH:MM" and the workbook remembers it across a reload.
 */
import {
  SETUP_TIMEOUT_MS,
  allCalculated,
  newSheet,
  openPreviewBrowser,
  openTab,
  paneAction,
  paneRestore,
  signIn,
  typeInto,
  type HostWindow,
  type PreviewBrowser,
} from "./support/previewBrowser";

jest.setTimeout(90_000);

let world: PreviewBrowser;
let sheet: string;
let today: string;

const PROPERTY_FORMULA = '=RENT.PROPERTY(A2:A4, "asking_rent")';

beforeAll(async () => {
  world = await openPreviewBrowser();
  today = world.preview.sandbox.clock.today();
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  sheet = await newSheet(world.page);
  await typeInto(world.page, "A1", '=RENT.LOOKUP("city=Austin; max_results=3")');
  await typeInto(world.page, "C2", PROPERTY_FORMULA);
  await allCalculated(world.page);
  await openTab(world, "workbook");
}, 3 * SETUP_TIMEOUT_MS); // the first run of a state of the sources builds the add-in: minutes on a busy machine

afterAll(() => world?.close());

/** Selects a cell of the grid; the pane follows the selection. */
async function asOfOf(address: string, expected: RegExp): Promise<string[]> {
  await world.page.locator(`#grid td[data-address="${address}"]`).click();
  const lines = world.pane.locator("#asof-lines li");
  await lines.filter({ hasText: expected }).first().waitFor();
  return lines.allTextContents();
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

it("shows a spilled cell's formula and its requests: from the service, then from the cache after a recalculation", async () => {
  const lines = await asOfOf("C3", /bulk_details/);
  expect(lines[0]).toBe(`${sheet}!C2 ${PROPERTY_FORMULA}`);
  expect(lines.join("\n")).toMatch(
    new RegExp(
      // Fresh until the service's next daily posting: today or tomorrow (the date is written when not today).
      `GET /properties/bulk_details: 3 answers from the service, fetched \\d\\d:\\d\\d; data of ${escaped(today)}; fresh until (\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d\\.`,
    ),
  );
  const lookup = await asOfOf("A3", /lookup/);
  expect(lookup[0]).toMatch(/!A1 =RENT\.LOOKUP/);
  expect(lookup.join("\n")).toMatch(
    /GET \/properties\/lookup: 1 answer from the service, fetched \d\d:\d\d; its data carries no date; fresh until/,
  );

  // Calculate now: every cell answered from memory, and the pane says so for the cell it shows.
  await world.page.locator('#grid td[data-address="C2"]').click();
  await world.page.locator("#calculate-button").click();
  await allCalculated(world.page);
  const again = await asOfOf("C2", /from the cache/);
  expect(again.join("\n")).toMatch(
    /GET \/properties\/bulk_details: 3 answers from the cache, fetched \d\d:\d\d; data of/,
  );
  const plain = await asOfOf("E9", /holds no RENT formula/);
  expect(plain).toEqual([`${sheet}!E9 holds no RENT formula.`]);
});

const comments = () =>
  world.page.evaluate(() =>
    (window as unknown as HostWindow).rentMarketHost.workbook.comments.map((comment) => ({ ...comment })),
  );

it("writes the as-of beside frozen values as a comment, and restoring removes it with the values", async () => {
  await world.page.locator('#grid td[data-address="C2"]').click();
  await world.pane.locator("#freeze-scope").selectOption("selection");
  const frozen = await paneAction(world, "freeze-button");
  expect(frozen).toMatch(/Replaced 1 RENT formula with its value\..*in a comment on its cell\./);
  const written = await comments();
  expect(written).toHaveLength(1);
  expect(written[0]).toMatchObject({ sheet, row: 1, column: 2 });
  expect(written[0]?.content).toMatch(
    new RegExp(
      `^Frozen by Rent Market on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\. As of: GET /properties/bulk_details: data of ${escaped(today)}, fetched \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d \\(from the (cache|service)\\)\\.$`,
    ),
  );

  const { summary } = await paneRestore(world);
  expect(summary).toBe("Restored 1 RENT formula.");
  expect(await comments()).toEqual([]);
  await allCalculated(world.page);
  const formula = await world.page.evaluate(
    (name) => (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name).cell(1, 2)?.formula,
    sheet,
  );
  expect(formula).toBe(PROPERTY_FORMULA);
});

it("ends Refresh with 'Refreshed N formulas at HH:MM' and what it did, and the workbook remembers it after a reload", async () => {
  await world.pane.locator("#refresh-scope").selectOption("sheet");
  const status = await paneAction(world, "refresh-button");
  // Calculated moments ago, with no posting of the service since: every answer is already current, none asked.
  expect(status).toMatch(
    /^Refreshed 2 formulas at \d\d:\d\d: 0 answers fresh, [1-9]\d* already current, 0 held, 0 failed\.$/,
  );
  const [, time = "", counts = ""] = /at (\d\d:\d\d): (.*)$/.exec(status) ?? [];
  // The workbook remembers the counts with the time, so they are still there after a reload.
  const remembered = `Last refresh of this workbook: 2 formulas at ${time}: ${counts}`;
  await expect(world.pane.locator("#last-refresh").textContent()).resolves.toBe(remembered);
  // The refreshed cell's answers were current: served from the cache, as fetched before.
  const lines = await asOfOf("C2", /from the cache/);
  expect(lines.join("\n")).toMatch(/GET \/properties\/bulk_details: 3 answers from the cache/);

  await world.page.reload();
  await world.pane.locator("#sign-in-button").waitFor();
  await openTab(world, "workbook");
  await world.pane.locator("#last-refresh", { hasText: remembered }).waitFor();
});

it("still shows a cell's as-of after a reload, from what was kept, without recalculating it", async () => {
  // The previous test reloaded the page: sign in again; the sheet keeps its values and nothing recalculates.
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  await openTab(world, "workbook");
  const lines = await asOfOf("C2", /bulk_details/);
  expect(lines[0]).toBe(`${sheet}!C2 ${PROPERTY_FORMULA}`);
  expect(lines[1]).toMatch(/^Calculated at \d\d:\d\d\.$/);
  // As the refresh before the reload left it: from the cache, the answers being current then.
  expect(lines.join("\n")).toMatch(/GET \/properties\/bulk_details: 3 answers from the cache/);
});
