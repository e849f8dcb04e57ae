/**
 * Formula value preview under the stand-in: the host page calls the add-in's functions for the part of a
 * formula a person selects while editing it, with `isInValuePreview` true (Excel on the web, Windows 2504+,
 * Mac 16.96+: docs/hosts.md). The preview answers from memory or shows #N/A "preview: runs when entered";
 * the sandbox counts no request and no export job for it. Entered, the same formula asks.
 */
import { PREVIEW_NOT_RUN } from "../../src/functions/cellCall";
import type { Cell } from "../host/workbook/workbook";
import {
  SETUP_TIMEOUT_MS,
  allCalculated,
  calculate,
  newSheet,
  openPreviewBrowser,
  signIn,
  typeInto,
  valuesOf,
  type HostWindow,
  type PreviewBrowser,
} from "./support/previewBrowser";

jest.setTimeout(90_000);

let world: PreviewBrowser;

beforeAll(async () => {
  world = await openPreviewBrowser();
  await signIn(world, "demo-pro", "sandbox-secret-pro");
}, SETUP_TIMEOUT_MS);

afterAll(() => world?.close());

const requests = () => world.preview.sandbox.counters.total();

/** What the host previews for `formula` selected while editing A1 of the active sheet. */
async function previewOf(formula: string): Promise<Cell[][]> {
  return world.page.evaluate(async (selected) => {
    const host = (window as unknown as HostWindow).rentMarketHost;
    return host.calculator.preview(host.workbook.activeSheetName, "A1", selected);
  }, formula);
}

const propertyId = (index: number) =>
  (world.preview.sandbox.dataset().properties[index] as { id: number }).id;

it("previews RENT.PROPERTIES without a request; entered, the formula asks the service", async () => {
  const formula = '=RENT.PROPERTIES("Austin", "property_name", "max_results=5")';
  await newSheet(world.page);
  const before = requests();
  expect(await previewOf(formula)).toEqual([[{ value: "#N/A", errorMessage: PREVIEW_NOT_RUN }]]);
  expect(requests()).toBe(before);

  await typeInto(world.page, "A1", formula);
  await allCalculated(world.page);
  expect(requests()).toBeGreaterThan(before);
});

it("previews RENT.HISTORY without submitting an export job", async () => {
  await newSheet(world.page);
  const before = requests();
  const formula = `=RENT.HISTORY(${propertyId(5)}, "avg_rent", DATE(2026, 1, 5), DATE(2026, 1, 9))`;
  expect(await previewOf(formula)).toEqual([[{ value: "#N/A", errorMessage: PREVIEW_NOT_RUN }]]);
  expect(requests()).toBe(before);
});

it("previews with what memory holds, and asks nothing for what it does not", async () => {
  const kept = `=RENT.PROPERTY(${propertyId(9)}, "property_name")`;
  const entered = valuesOf(await calculate(world.page, kept));
  const before = requests();
  expect(valuesOf(await previewOf(kept))).toEqual(entered);
  expect(await previewOf(`=RENT.PROPERTY(${propertyId(10)}, "property_name")`)).toEqual([
    [{ value: "#N/A", errorMessage: PREVIEW_NOT_RUN }],
  ]);
  expect(requests()).toBe(before);
});
