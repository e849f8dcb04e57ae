/**
 * The pane as Office's own panes are: Fluent UI elements in tabs, at most 350 px wide with no sideways
 * scrolling, light or dark with the Office theme, every tab free of serious or critical accessibility
 * faults (axe-core, run inside the pane's frame), and usable from the keyboard alone.
 */
import { readFileSync } from "node:fs";
import type { AxeResults, RunOptions } from "axe-core";
import {
  SETUP_TIMEOUT_MS,
  openPreviewBrowser,
  openTab,
  signIn,
  type PaneTab,
  type PreviewBrowser,
} from "./support/previewBrowser";

jest.setTimeout(60_000);

const TABS: PaneTab[] = ["insert", "comp-sets", "exports", "workbook", "account"];
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

let world: PreviewBrowser;

// Each theme's first test loads the pane afresh and signs in; the tests after it use that sign-in.
beforeAll(async () => {
  world = await openPreviewBrowser();
}, SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

const paneFrame = () => {
  const frame = world.page.frame({ url: /taskpane\.html/ });
  if (!frame) throw new Error("no pane frame");
  return frame;
};

/** axe-core's serious and critical violations in the pane as it is shown now. */
async function seriousViolations(): Promise<string[]> {
  const frame = paneFrame();
  // Evaluated by the browser's debugger, which the page's CSP does not govern (a <script> tag would be refused);
  // once per load of the pane, not once per tab.
  if (!(await frame.evaluate(() => "axe" in window))) await frame.evaluate(AXE_SOURCE);
  // Only the violations are read: axe details every passing node too unless told not to, and the page would
  // send all of it back.
  const results = await frame.evaluate(() =>
    (window as unknown as { axe: { run(options: RunOptions): Promise<AxeResults> } }).axe.run({
      resultTypes: ["violations"],
    }),
  );
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
}

describe.each(["light", "dark"] as const)("in the %s theme", (scheme) => {
  beforeAll(() => world.page.emulateMedia({ colorScheme: scheme }));

  it("follows the Office theme", async () => {
    await world.page.reload();
    await world.pane.locator("#sign-in-button").waitFor({ state: "attached" });
    await world.pane.locator(`html[data-theme="${scheme}"]`).waitFor({ state: "attached" });
    await signIn(world, "demo-pro", "sandbox-secret-pro");
  });

  it.each(TABS)(
    "shows the %s tab with no serious accessibility fault and no sideways scroll",
    async (tab) => {
      await openTab(world, tab);
      expect(await seriousViolations()).toEqual([]);
      const size = await world.pane
        .locator("html")
        .evaluate((html) => ({ scroll: html.scrollWidth, client: html.clientWidth }));
      expect(size.client).toBeLessThanOrEqual(350);
      expect(size.scroll).toBeLessThanOrEqual(size.client);
    },
  );
});

it("is usable from the keyboard: arrows move between tabs, Tab reaches a tab's controls, Enter presses", async () => {
  const { pane } = world;
  await openTab(world, "account");
  await pane.locator("#tab-account").focus();
  await world.page.keyboard.press("ArrowLeft");
  await pane.locator("#panel-workbook").waitFor({ state: "visible" });
  await expect(pane.locator("#tab-workbook").getAttribute("aria-selected")).resolves.toBe("true");

  // From the tab list, Tab walks into the panel: its fields and Fluent buttons are all in the tab order.
  const reached: string[] = [];
  for (let step = 0; step < 13; step++) {
    await world.page.keyboard.press("Tab");
    reached.push(await paneFrame().evaluate(() => document.activeElement?.id ?? ""));
  }
  expect([...reached]).toEqual(
    expect.arrayContaining([
      "template-choice",
      "template-button",
      "chart-field",
      "chart-button",
      "refresh-scope",
      "refresh-button",
      "cache-stats-button",
      "freeze-button",
    ]),
  );

  await pane.locator("#cache-stats-button").focus();
  await pane.locator("#cache-stats").evaluate((list) => list.replaceChildren());
  await world.page.keyboard.press("Enter");
  await pane.locator("#cache-stats li").first().waitFor();
});
