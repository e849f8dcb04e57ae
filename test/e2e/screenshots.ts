/**
 * Screenshots for the README, made the way the e2e tests work: the preview with the real add-in in
 * headless Chromium against a fresh sandbox. Writes docs/screenshots/*.png.
 *
 *   npx tsx test/e2e/screenshots.ts
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  allCalculated,
  openPreviewBrowser,
  signIn,
  typeInto,
  type PreviewBrowser,
} from "./support/previewBrowser";

const OUTPUT = join(__dirname, "..", "..", "docs", "screenshots");

/** A small underwriting sheet: a market, its rent and occupancy, and a block of properties. */
const WORKED_SHEET: [string, string][] = [
  ["A1", "Market"],
  ["B1", '=RENT.BOUNDARY("Austin", "MSA")'],
  ["A2", "Average rent (30 days)"],
  ["B2", '=RENT.MARKET(B1, "rent_avg_t30")'],
  ["A3", "Leased % (30 days)"],
  ["B3", '=RENT.MARKET(B1, "leased_percent_avg_t30")'],
  ["A4", "A bad id shows why"],
  ["B4", '=RENT.PROPERTY(0, "asking_rent")'],
  ["B6", "property_name"],
  ["C6", "unit_count"],
  ["D6", "year_built"],
  ["E6", "asking_rent"],
  ["A6", '=RENT.LOOKUP("city=Austin; property_class=A; max_results=10")'],
  ["B7", "=RENT.PROPERTY(A7:A16, B6:E6)"],
];

async function main(): Promise<void> {
  mkdirSync(OUTPUT, { recursive: true });
  const world: PreviewBrowser = await openPreviewBrowser();
  try {
    const { page, pane } = world;
    await pane.locator("#client-id").fill("demo-pro");
    await page.locator("#taskpane-frame").screenshot({ path: join(OUTPUT, "pane-sign-in.png") });

    await signIn(world, "demo-pro", "sandbox-secret-pro");
    for (const [address, input] of WORKED_SHEET) await typeInto(page, address, input);
    await allCalculated(page);
    // Selecting the error cell shows its formula in the bar; its message is the cell's tooltip in the grid.
    await page.locator('#grid td[data-address="B4"]').click();
    await page.locator('#grid td[data-address="B4"].error').waitFor();
    await page.screenshot({ path: join(OUTPUT, "worked-sheet.png") });
    await page.locator("#taskpane-frame").screenshot({ path: join(OUTPUT, "pane-signed-in.png") });
    console.log(`Screenshots written to ${OUTPUT}`);
  } finally {
    await world.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
