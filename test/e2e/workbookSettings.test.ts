/**
 * Opening the pane leaves the workbook as it was: Excel marks a file changed when an add-in writes its settings
 * (and a read-only file refuses the write), so the workbook's identity is written only when the person acts.
 */
import {
  SETUP_TIMEOUT_MS,
  openPreviewBrowser,
  signIn,
  type HostWindow,
  type PreviewBrowser,
} from "./support/previewBrowser";

jest.setTimeout(90_000);

let world: PreviewBrowser;

beforeAll(async () => {
  world = await openPreviewBrowser();
}, 3 * SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

const settingKeys = () =>
  world.page.evaluate(() => [...(window as unknown as HostWindow).rentMarketHost.workbook.settings.keys()]);

it("writes nothing into the workbook's settings when the pane opens, and the identity at a sign-in by hand", async () => {
  // The pane's load-time work with the workbook is done once it shows the selected cell's as-of.
  await world.pane.locator("#asof-lines li").first().waitFor({ state: "attached" });
  expect(await settingKeys()).toEqual([]);

  await signIn(world, "demo-pro", "sandbox-secret-pro");
  await world.page.waitForFunction(() =>
    (window as unknown as HostWindow).rentMarketHost.workbook.settings.has("rentMarket.workbookId"),
  );
});
