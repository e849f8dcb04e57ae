/**
 * RENT.HISTORY in the preview, against a sandbox whose export jobs take the live service's minutes: the cell
 * shows its wait, then spills; the first time costs one job (plus polls), the second nothing; a reload during a
 * job follows it instead of submitting again; a stalled job ends its cells with the reason.
 *
 * No test waits out those minutes: the sandbox's clock is frozen and moved by the test, and the page runs on
 * Playwright's clock, moved as far, so the add-in's polls (every 20 s, growing to 60 s) come due at once.
 */
import type { Page } from "playwright-core";
import {
  SETUP_TIMEOUT_MS,
  newSheet,
  openPreviewBrowser,
  signIn,
  typeInto,
  type HostWindow,
  type PreviewBrowser,
} from "./support/previewBrowser";

jest.setTimeout(120_000);

const NOW = "2026-03-15T12:00:00.000Z";
const JOBS = "/v1/bulk_api/jobs";
const POLL = "/v1/bulk_api/jobs/:job_id";
const RESULTS = "/v1/bulk_api/jobs/:job_id/results";

let world: PreviewBrowser;
/** Requests of the page (and its pane) on the wire: the page's clock moves only when none is, so no time bound fires. */
let onTheWire = 0;

beforeAll(async () => {
  world = await openPreviewBrowser({ now: NOW, jobTimeScale: 1 });
  world.page.on("request", () => void onTheWire++);
  world.page.on("requestfinished", () => void onTheWire--);
  world.page.on("requestfailed", () => void onTheWire--);
  // The page's timers run on a clock the test moves; installed before the add-in loads, so it is the one it reads.
  await world.page.clock.install({ time: Date.parse(NOW) });
  await world.page.reload();
  await world.pane.locator("#sign-in-button").waitFor();
}, SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

/** What a cell shows now: its value (a spill's corner), or its error's message when it shows one. */
function shown(page: Page, sheet: string, address: string) {
  return page.evaluate(
    ({ sheet, address }) => {
      const host = (window as unknown as HostWindow).rentMarketHost;
      const match = /^([A-Z]+)(\d+)$/.exec(address) as RegExpExecArray;
      const column = (match[1] as string).charCodeAt(0) - 65;
      const row = Number(match[2]) - 1;
      const target = host.workbook.sheet(sheet);
      const cell = target.cell(row, column);
      const spill = target.spills.get(`${row},${column}`);
      return {
        value: cell?.value,
        message: cell?.errorMessage,
        format: cell?.valueFormat,
        rows: spill?.rowCount ?? 1,
        columns: spill?.columnCount ?? 1,
      };
    },
    { sheet, address },
  );
}

/** Waits (in real time, briefly) until the cell shows what `done` looks for. */
async function until(page: Page, sheet: string, address: string, done: (value: string) => boolean) {
  for (let tries = 0; tries < 200; tries++) {
    const now = await shown(page, sheet, address);
    if (done(String(now.value))) return now;
    await page.waitForTimeout(25);
  }
  throw new Error(`${address} shows ${JSON.stringify(await shown(page, sheet, address))}`);
}

/** Moves both clocks a minute at a time until the cell stops waiting for its export; returns what it shows. */
async function runJobs(page: Page, sheet: string, address: string, maxMinutes: number) {
  const { sandbox } = world.preview;
  for (let minute = 0; minute < maxMinutes; minute++) {
    const now = await shown(page, sheet, address);
    if (!String(now.value).startsWith("export ") && now.value !== "#BUSY!") return now;
    for (let waited = 0; onTheWire > 0 && waited < 200; waited++) await page.waitForTimeout(25);
    await sandbox.context.worker.flush();
    sandbox.clock.advance(60_000);
    await page.clock.fastForward(60_000);
    await page.waitForTimeout(50);
  }
  return until(page, sheet, address, (value) => !value.startsWith("export "));
}

/** Ten property ids down A1:A10, from `first`. */
async function typeIds(page: Page, first: number) {
  for (let index = 0; index < 10; index++) await typeInto(page, `A${index + 1}`, String(first + index));
}

const formula = (interval: string) =>
  `=RENT.HISTORY(A1:A10, "avg_rent, advertised_occupancy_pct", "2025-02-01", "2026-02-28", "${interval}")`;

it("ten properties over 13 months: shows the wait, spills, one job cold and no request warm", async () => {
  const { page, preview } = world;
  const counters = preview.sandbox.counters;
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  const sheet = await newSheet(page);
  await typeIds(page, 100001);
  counters.reset();
  await typeInto(page, "C1", formula("month"));
  const waiting = await until(page, sheet, "C1", (value) => value.startsWith("export running"));
  expect(waiting.value).toBe("export running, about 7 min");

  const done = await runJobs(page, sheet, "C1", 20);
  expect(done).toMatchObject({ value: "date", rows: 1 + 10 * 13 });
  expect(counters.get(JOBS)).toBe(1);
  expect(counters.get(RESULTS)).toBe(1);
  expect(counters.get(POLL)).toBeGreaterThan(0);

  // The same history again, by week this time: every day is kept, so no request at all.
  counters.reset();
  await typeInto(page, "H1", formula("week"));
  const warm = await until(page, sheet, "H1", (value) => value === "date");
  expect(warm.rows).toBeGreaterThan(1 + 10 * 52);
  expect(counters.snapshot()).toEqual({});

  // The months again in the wide layout: a row per field and property, a column per month headed by its date
  // (M1's spill: id, field, then 2025-02-28 in O1), from the days kept.
  await typeInto(
    page,
    "M1",
    '=RENT.HISTORY(A1:A10, "avg_rent, advertised_occupancy_pct", "2025-02-01", "2026-02-28", "month", , , "wide")',
  );
  const wide = await until(page, sheet, "M1", (value) => value === "id");
  expect(wide).toMatchObject({ rows: 1 + 2 * 10, columns: 2 + 13 });
  expect(await shown(page, sheet, "O1")).toMatchObject({ value: 45716, format: "yyyy-mm-dd" });
  expect(counters.snapshot()).toEqual({});
  // A layout it does not have: #VALUE! saying which was meant.
  await typeInto(page, "M30", '=RENT.HISTORY(A1, "avg_rent", "2026-01-01", "2026-01-31", , , , "wdie")');
  expect(await until(page, sheet, "M30", (value) => value === "#VALUE!")).toMatchObject({
    message: 'layout must be long or wide, not "wdie". Did you mean "wide"?',
  });
});

it("a reload during the job follows it instead of submitting again", async () => {
  const { page, pane, preview } = world;
  const counters = preview.sandbox.counters;
  const sheet = await newSheet(page);
  await typeIds(page, 100021);
  counters.reset();
  await typeInto(page, "C1", formula("quarter"));
  await until(page, sheet, "C1", (value) => value.startsWith("export running"));
  expect(counters.get(JOBS)).toBe(1);

  await page.reload();
  await pane.locator("#sign-in-button").waitFor();
  await page.locator("#sheet-tabs .tab", { hasText: sheet }).click();
  await signIn(world, "demo-pro", "sandbox-secret-pro");
  // The sign-in enters the waiting cell again; it follows the job the first pane kept.
  await until(page, sheet, "C1", (value) => value.startsWith("export running"));
  const done = await runJobs(page, sheet, "C1", 20);
  expect(done.value).toBe("date");
  expect(counters.get(JOBS)).toBe(1);
  expect(counters.get(RESULTS)).toBe(1);
});

it("a stalled job ends its cells with the reason", async () => {
  const { page, preview } = world;
  const sheet = await newSheet(page);
  await typeInto(page, "A1", "100041");
  preview.sandbox.context.worker.configure({ stallReportType: "property" });
  try {
    await typeInto(page, "C1", '=RENT.HISTORY(A1, "avg_rent", "2026-01-01", "2026-01-31")');
    await until(page, sheet, "C1", (value) => value.startsWith("export running"));
    const ended = await runJobs(page, sheet, "C1", 20);
    expect(ended.value).toBe("#N/A");
    expect(ended.message).toMatch(
      /^Export job [0-9a-f]{8} was still running after 1[5-6] min \(expected about 1 min\); the service may have stalled it, so it was cancelled\. Recalculate to submit it again\.$/,
    );
  } finally {
    preview.sandbox.context.worker.configure({ stallReportType: undefined });
  }
});
