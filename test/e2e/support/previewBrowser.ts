/**
 * One e2e test file's world: the preview (host page + the real add-in build + a sandbox on free ports) and a
 * headless Chromium (Debian's, driven by playwright-core) on it, with what a person does there: sign in
 * through the pane, type formulas into cells, read what the cells show.
 *
 * Under jest, the files a worker runs share one Chromium and one preview per set of sandbox options (started
 * by the first file, closed when the worker ends: test/support/workerScope.ts); each file gets a browser
 * context of its own (its own storage: IndexedDB, the remembered secret, the saved workbook) and the
 * sandbox's request counters and faults reset. Elsewhere (`npm run screenshots`) each world is its own.
 */
import type { Browser, BrowserContext, FrameLocator, Locator, Page } from "playwright-core";
import type { SandboxOptions } from "../../../sandbox/server";
import { parseCellAddress } from "../../../src/excel/a1";
import type { HostPageBridge } from "../../host/page/main";
import type { HostProfileName } from "../../host/profiles";
import type { CellValue } from "../../host/workbook/workbook";
import { startPreview, type RunningPreview } from "../../host/previewServer";
import { workerChromium } from "../../support/chromium";
import { installDefaultBrowser, type DefaultBrowser } from "./defaultBrowser";
import { sharedForWorker } from "../../support/sharedForWorker";

/** Starting the preview and Chromium (the add-in is built before the files start: ./globalSetup.ts). */
export const SETUP_TIMEOUT_MS = 180_000;
/** Long enough for a formula's requests through the data layer, and for errors to tell what is wrong. */
export const CELL_TIMEOUT_MS = 20_000;

/** The host page's window: its bridge holds the workbook the grid draws. */
export type HostWindow = Window & { rentMarketHost: HostPageBridge };

export interface ShownCell {
  value: CellValue;
  errorMessage?: string;
}

export interface PreviewBrowser {
  preview: RunningPreview;
  browser: Browser;
  page: Page;
  pane: FrameLocator;
  /** The person's default browser, where openBrowserWindow sends them. */
  defaultBrowser: DefaultBrowser;
  close(): Promise<void>;
}

/**
 * The preview in Chromium. `host` names the Excel the page plays (test/host/profiles.ts); without it, the
 * preview's default profile.
 */
export async function openPreviewBrowser(
  sandbox: Partial<SandboxOptions> = {},
  viewport = { width: 1400, height: 860 },
  host?: HostProfileName,
): Promise<PreviewBrowser> {
  const shared = sharedForWorker();
  // The tests' own raw requests must not eat into the pane's rate limit.
  const sandboxOptions = { rateLimit: 1_000_000, ...sandbox };
  const preview = await shared.get(
    `preview ${JSON.stringify(sandboxOptions)}`,
    () => startPreview({ sandbox: sandboxOptions }),
    (running) => running.close(),
  );
  // What an earlier file of this worker did to the sandbox is not this file's to count or suffer.
  preview.sandbox.counters.reset();
  preview.sandbox.faults.reset();
  let chromium: Awaited<ReturnType<typeof workerChromium>> | undefined;
  let context: BrowserContext | undefined;
  try {
    chromium = await workerChromium();
    const { browser, release } = chromium;
    context = await browser.newContext({ viewport });
    const defaultBrowser = await installDefaultBrowser(context);
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error(`page error: ${error.stack ?? error.message}`));
    await page.goto(host ? `${preview.url}?host=${host}` : preview.url);
    const pane = page.frameLocator("#taskpane-frame");
    await pane.locator("#sign-in-button").waitFor();
    const opened = context;
    return {
      preview,
      browser,
      page,
      pane,
      defaultBrowser,
      close: async () => {
        await opened.close();
        await release();
        await shared.release();
      },
    };
  } catch (error) {
    await context?.close();
    await chromium?.release();
    await shared.release();
    throw error;
  }
}

export type PaneTab = "insert" | "comp-sets" | "exports" | "workbook" | "account";

/** Opens one of the pane's tabs by clicking it, as a person does, and waits for its panel to show. */
export async function openTab(world: Pick<PreviewBrowser, "pane">, tab: PaneTab): Promise<void> {
  await world.pane.locator(`#tab-${tab}`).click();
  await world.pane.locator(`#panel-${tab}`).waitFor({ state: "visible" });
}

/** Opens the tab that holds an element of the pane, unless it is open already. */
export async function openTabOf(world: Pick<PreviewBrowser, "pane">, elementId: string): Promise<void> {
  const panel = await world.pane
    .locator(`#${elementId}`)
    .evaluate((found) => found.closest("[role=tabpanel]")?.id ?? "");
  const tab = panel.replace(/^panel-/, "") as PaneTab;
  if (tab && !(await world.pane.locator(`#${panel}`).isVisible())) await openTab(world, tab);
}

/** Signs in through the pane's form, pointing it at this run's sandbox. */
export async function signIn(world: PreviewBrowser, clientId: string, clientSecret: string): Promise<void> {
  const { pane, preview } = world;
  await openTab(world, "account");
  await pane.locator("#client-id input").fill(clientId);
  await pane.locator("#client-secret input").fill(clientSecret);
  const settings = pane.locator("details", { has: pane.locator("#service-url") });
  if ((await settings.getAttribute("open")) === null) await settings.locator("summary").click();
  await pane.locator("#service-url input").fill(preview.sandbox.url);
  // Leaving the field fills in the token URL of that service, as a person sees it happen.
  await pane.locator("#service-url input").press("Tab");
  const tokenUrl = await pane.locator("#token-url input").inputValue();
  if (tokenUrl !== `${preview.sandbox.url}/oauth/token`)
    throw new Error(`The pane derived the token URL ${tokenUrl}`);
  await pane.locator("#sign-in-button").click();
  const outcome = await Promise.race([
    pane
      .locator("#signed-in-section")
      .waitFor({ state: "visible", timeout: CELL_TIMEOUT_MS })
      .then(() => "signed in"),
    pane
      .locator("#status.error")
      .waitFor({ timeout: CELL_TIMEOUT_MS })
      .then(() => "error"),
  ]);
  // A sign-in can succeed and still end with an error status (a secret asked to be remembered that this web
  // view cannot keep): the signed-in section tells which, whichever of the two was seen first.
  if (outcome !== "signed in" && !(await pane.locator("#signed-in-section").isVisible()))
    throw new Error(`Sign-in failed: ${await pane.locator("#status").textContent()}`);
  // The signed-in section shows as soon as the session has its token; the sign-in ends after that, when a
  // secret asked to be remembered has been kept (what a reload signs in with) and the button is free again.
  await pane
    .locator("#sign-in-button:not([aria-busy])")
    .waitFor({ state: "attached", timeout: CELL_TIMEOUT_MS });
}

/** Opens a new sheet (the "+" tab) so a formula's spill has room; returns its name. */
export async function newSheet(page: Page): Promise<string> {
  await page.locator("#add-sheet").click();
  const name = await page.evaluate(
    () => (window as unknown as HostWindow).rentMarketHost.workbook.activeSheetName,
  );
  await page.locator("#sheet-tabs .tab.active", { hasText: name }).waitFor();
  return name;
}

/** Types into a cell as a person does: select it, type, press Enter. */
export async function typeInto(page: Page, address: string, input: string): Promise<void> {
  await page.locator(`#grid td[data-address="${address}"]`).click();
  await page.locator("#formula-input").fill(input);
  await page.locator("#formula-input").press("Enter");
}

/** Types as a person at the keyboard: arrows from A1 to the cell, then the entry straight onto the grid. */
export async function typeWithKeyboard(page: Page, address: string, input: string): Promise<void> {
  const { row, column } = parseCellAddress(address);
  await page.locator('#grid td[data-address="A1"]').click();
  for (let r = 0; r < row; r++) await page.keyboard.press("ArrowDown");
  for (let c = 0; c < column; c++) await page.keyboard.press("ArrowRight");
  await page.keyboard.type(input);
  await page.keyboard.press("Enter");
}

/**
 * What a formula cell shows once calculated: its spilled array (or its one value), each cell with its error
 * message if any. Read from the host's workbook, which is what the grid draws.
 */
export async function shownAt(page: Page, sheet: string, address: string): Promise<ShownCell[][]> {
  const { row, column } = parseCellAddress(address);
  const where = { sheet, row, column };
  await page.waitForFunction(
    ({ sheet, row, column }) => {
      const cell = (window as unknown as HostWindow).rentMarketHost.workbook
        .findSheet(sheet)
        ?.cell(row, column);
      return cell !== undefined && cell.value !== "#BUSY!";
    },
    where,
    { timeout: CELL_TIMEOUT_MS },
  );
  return page.evaluate(({ sheet, row, column }) => {
    const target = (window as unknown as HostWindow).rentMarketHost.workbook.sheet(sheet);
    const rect = target.spills.get(`${row},${column}`) ?? { row, column, rowCount: 1, columnCount: 1 };
    return Array.from({ length: rect.rowCount }, (_, r) =>
      Array.from({ length: rect.columnCount }, (_, c) => {
        const cell = target.cells.get(`${rect.row + r},${rect.column + c}`);
        const shown: ShownCell = { value: cell?.value ?? "" };
        if (cell?.errorMessage !== undefined) shown.errorMessage = cell.errorMessage;
        return shown;
      }),
    );
  }, where);
}

/** Just the values of a shown array. */
export const valuesOf = (shown: ShownCell[][]): CellValue[][] =>
  shown.map((row) => row.map((cell) => cell.value));

/** Types a formula into A1 of a new sheet and gives back what it shows. */
export async function calculate(page: Page, formula: string): Promise<ShownCell[][]> {
  const sheet = await newSheet(page);
  await typeInto(page, "A1", formula);
  return shownAt(page, sheet, "A1");
}

/** The column of a spilled table (header row first) by its header. */
export function column(table: CellValue[][], name: string): CellValue[] {
  const index = (table[0] ?? []).indexOf(name);
  if (index < 0) throw new Error(`no column ${name} in ${String(table[0])}`);
  return table.slice(1).map((row) => row[index] ?? "");
}

/** Waits until no formula of the workbook is calculating. */
export async function allCalculated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const host = (window as unknown as HostWindow).rentMarketHost;
      return host.workbook.sheets.every((sheet) =>
        [...sheet.cells.values()].every((cell) => cell.value !== "#BUSY!"),
      );
    },
    undefined,
    { timeout: CELL_TIMEOUT_MS },
  );
}

/** Whether a Fluent check box or radio is checked (Playwright's isChecked() knows native ones only). */
export function isTicked(target: Locator): Promise<boolean> {
  return target.evaluate((element) => (element as HTMLInputElement).checked === true);
}

/** Ticks a Fluent check box or radio as a person does, with a click, and waits until it shows checked. */
export async function tick(target: Locator): Promise<void> {
  if (!(await isTicked(target))) await target.click();
  for (let waited = 0; !(await isTicked(target)); waited += 50) {
    if (waited > CELL_TIMEOUT_MS) throw new Error("The check box or radio did not take the click.");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Clicks a pane button and waits for the action to settle: the button enabled again and the status line
 * saying something (emptied first, so an unchanged message cannot be mistaken for the answer). Returns the
 * status text; a failure shown there throws. `busyId` is the button the action marks busy, when not the one
 * clicked.
 */
export async function paneAction(
  world: PreviewBrowser,
  buttonId: string,
  busyId = buttonId,
): Promise<string> {
  const status = world.pane.locator("#status");
  await status.evaluate((element) => {
    element.textContent = "";
  });
  await openTabOf(world, buttonId);
  await world.pane.locator(`#${buttonId}`).click();
  // `aria-busy` is set the moment the click starts the action (a Fluent button reflects `disabled` to its
  // attribute a moment later), and removed when the action settles.
  await world.pane
    .locator(`#${busyId}:not([disabled]):not([aria-busy])`)
    .waitFor({ timeout: CELL_TIMEOUT_MS });
  await world.pane.locator("#status:not(:empty)").waitFor({ timeout: CELL_TIMEOUT_MS });
  const text = (await status.textContent()) ?? "";
  if ((await status.getAttribute("class"))?.includes("error")) throw new Error(`The pane says: ${text}`);
  return text;
}

/**
 * Restore formulas as a person does it: the pane says what the restore costs and asks, the person confirms.
 * Returns the cost said and the restore's summary, once its formulas have answered.
 */
export async function paneRestore(world: PreviewBrowser): Promise<{ cost: string; summary: string }> {
  const cost = await paneAction(world, "restore-button");
  const summary = await paneAction(world, "restore-confirm-button", "restore-button");
  return { cost, summary };
}

/** The values of a sheet's used range, from its top-left cell A1. */
export async function sheetValues(page: Page, sheet: string): Promise<CellValue[][]> {
  return page.evaluate((name) => {
    const target = (window as unknown as HostWindow).rentMarketHost.workbook.sheet(name);
    const used = target.usedRect(true);
    if (!used) return [];
    return Array.from({ length: used.row + used.rowCount }, (_, row) =>
      Array.from(
        { length: used.column + used.columnCount },
        (_, column) => target.cell(row, column)?.value ?? "",
      ),
    );
  }, sheet);
}

/** What a table written by the add-in shows: its headers, then its rows (Excel hides the text mark "'"). */
export function shownTable(table: {
  columns: readonly { header: string }[];
  rows: readonly (readonly CellValue[])[];
}) {
  const shown = (value: CellValue) =>
    typeof value === "string" && value.startsWith("'") ? value.slice(1) : value;
  return [table.columns.map((column) => shown(column.header)), ...table.rows.map((row) => row.map(shown))];
}
