/**
 * Restore formulas destroys nothing the sheet shows: the pane says what a restore will cost before it writes,
 * refuses while signed out, and puts the frozen values back where a restored formula answers with an error.
 * The workbook is the host stand-in's (test/host), calculated by its calculator; RENT.PROPERTY is the add-in's
 * own function against the sandbox over HTTP, at the live pacing.
 */
import "fake-indexeddb/auto";
import { FROZEN_STORE_SHEET_NAME } from "../../src/excel/frozenFormulaStore";
import { LIVE_PACING } from "../../src/data/tokenBucket";
import { property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { FreezeController, restoreOfferText, restoreSummary } from "../../src/taskpane/freezeController";
import { Calculator } from "../host/page/calculator";
import { HOST_PROFILES } from "../host/profiles";
import { excelNamespace, type StandInRequestContext } from "../host/standin/excelApi";
import type { HostBridge } from "../host/standin/hostBridge";
import { officeNamespace } from "../host/standin/office";
import { Workbook } from "../host/workbook/workbook";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

const BULK = "/v1/properties/bulk_details";
/** What the stand-in's RENT.HISTORY answers: the frozen table of a history formula (no export job here). */
const HISTORY_TABLE = [
  ["date", "avg_rent"],
  [46000, 1500],
  [46001, 1510],
];

let world: SignedInSandbox;
let databaseCounter = 0;

/** A workbook in the stand-in host whose RENT.PROPERTY is the add-in's; ids of the dataset in A2:A4. */
function host() {
  const workbook = new Workbook();
  const calculator = new Calculator(
    workbook,
    "RENT",
    [
      {
        id: "PROPERTY",
        name: "PROPERTY",
        parameters: [
          { name: "propertyId", dimensionality: "matrix" },
          { name: "field", dimensionality: "matrix", optional: true },
        ],
        options: { cancelable: true, requiresAddress: true },
      },
      {
        id: "HISTORY",
        name: "HISTORY",
        parameters: [{ name: "properties" }, { name: "fields" }, { name: "start" }, { name: "end" }],
      },
    ],
    HOST_PROFILES["m365-windows"],
  );
  calculator.registerFunction("PROPERTY", (ids, fields, invocation) =>
    property(ids as unknown[][], fields as unknown[][], invocation as CustomFunctions.CancelableInvocation),
  );
  calculator.registerFunction("HISTORY", async () => HISTORY_TABLE);
  const bridge: HostBridge = {
    workbook,
    profile: HOST_PROFILES["m365-windows"],
    outside: { browserWindows: [], windowOpens: [], blobDownloads: [] },
    registerFunction: (id, implementation) => calculator.registerFunction(id, implementation),
  };
  const excel = excelNamespace(bridge);
  Object.assign(globalThis, { Office: officeNamespace(bridge) });
  const run = <T>(batch: (context: Excel.RequestContext) => Promise<T>) =>
    excel.run((context: StandInRequestContext) => batch(context as unknown as Excel.RequestContext));
  const calculated = async () => {
    while (calculator.calculatingCount() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  const ids = [100_001, 100_002, 100_003];
  ids.forEach((id, index) => workbook.enter("Sheet1", 1 + index, 0, id));
  /** What the sheet shows, value by value (a formula's cells included), and which cells hold formulas. */
  const shown = () =>
    [...workbook.sheet("Sheet1").cells.entries()]
      .map(([key, cell]) => `${key} ${JSON.stringify(cell.value)}${cell.formula ? ` ${cell.formula}` : ""}`)
      .sort();
  /** The formulas the hidden store keeps for a later restore. */
  const kept = () =>
    [...(workbook.findSheet(FROZEN_STORE_SHEET_NAME)?.cells.values() ?? [])]
      .map((cell) => String(cell.value))
      .filter((text) => text.startsWith("{"))
      .map((text) => (JSON.parse(text) as { formula: string }).formula);
  // Every cell looked at during a restore is looked at again at once: no wall clock in the wait.
  const controller = new FreezeController(run, session, { settle: { sleep: () => calculated() } });
  return { workbook, run, calculated, shown, kept, controller };
}

beforeAll(async () => {
  world = await startSignedInSandbox("demo-pro");
});

beforeEach(async () => {
  // The live service's pacing (100 requests per 5 minutes, 50 at once): a restore here sends a few requests.
  session.useDataOptions({ pacing: LIVE_PACING, databaseName: `restore-${++databaseCounter}` });
  await world.signInAs("demo-pro");
  world.sandbox.context.quota.configure(1_000_000);
  world.sandbox.context.quota.reset();
});

afterEach(() => {
  delete (globalThis as { Office?: unknown }).Office;
});

afterAll(() => world.close());

it("says what a restore costs before it writes anything, export jobs of history formulas included", async () => {
  const { workbook, calculated, shown, controller } = host();
  workbook.enter("Sheet1", 0, 2, '=RENT.PROPERTY(A2:A4, "asking_rent")');
  workbook.enter("Sheet1", 0, 4, '=RENT.HISTORY(100001, "avg_rent", "2025-01-01", "2025-01-02")');
  await calculated();
  await controller.freeze({ kind: "workbook" });
  const frozen = shown();

  const offer = await controller.offerRestore({ kind: "workbook" });

  expect(restoreOfferText(offer)).toBe(
    "Restoring puts back 2 RENT formulas, which recalculate: up to 3 requests (the service allows 100 " +
      "requests per 5 minutes), up to 3 properties of the bulk export quota and at least 1 export job " +
      "(RENT.HISTORY: one per 1,000 properties and 400 days of a formula, each taking minutes and looking at " +
      "the service while it runs). Answers still in the cache cost nothing. Frozen values stay where a formula " +
      "cannot answer.",
  );
  expect(offer.cost).toEqual({ formulas: 2, requests: 3, quotaProperties: 3, exportJobs: 1 });
  expect(shown()).toEqual(frozen);
});

it("refuses while signed out, with what a restore would put back, and changes no cell", async () => {
  const { workbook, calculated, shown, kept, controller } = host();
  workbook.enter("Sheet1", 0, 2, '=RENT.PROPERTY(A2:A4, "asking_rent")');
  await calculated();
  await controller.freeze({ kind: "workbook" });
  const frozen = shown();
  const offer = await controller.offerRestore({ kind: "workbook" });
  await session.signOut();
  const sent = world.sandbox.counters.get(BULK);

  const refusal = "Sign in first: restoring puts back 1 formula, which recalculate.";
  expect(restoreOfferText(await controller.offerRestore({ kind: "workbook" }))).toBe(refusal);
  await expect(controller.restore(offer)).rejects.toThrow(refusal);

  expect(shown()).toEqual(frozen);
  expect(kept()).toEqual(['=RENT.PROPERTY(A2:A4, "asking_rent")']);
  expect(world.sandbox.counters.get(BULK)).toBe(sent);
});

it("keeps the frozen values, and the formula for later, where a restored formula answers with an error", async () => {
  const { workbook, calculated, shown, kept, controller } = host();
  workbook.enter("Sheet1", 0, 2, '=RENT.PROPERTY(A2:A4, "asking_rent")');
  await calculated();
  await controller.freeze({ kind: "workbook" });
  const frozen = shown();
  expect(frozen.some((line) => line.includes("RENT.PROPERTY"))).toBe(false);
  const rentOfFirst = workbook.sheet("Sheet1").cell(0, 2)?.value;
  expect(typeof rentOfFirst).toBe("number");

  // A sign-out empties the cache; after the next sign-in the service refuses the block (its quota is spent).
  await session.signOut();
  await world.signInAs("demo-pro");
  world.sandbox.context.quota.configure(1);
  const refused = await controller.restore(await controller.offerRestore({ kind: "workbook" }));

  expect(restoreSummary(refused)).toMatch(
    /^1 formula answered with an error, so its frozen values stay and it stays kept for Restore formulas \(Sheet1!C1: .*quota.*\)\.$/i,
  );
  expect(shown()).toEqual(frozen);
  expect(kept()).toEqual(['=RENT.PROPERTY(A2:A4, "asking_rent")']);

  // The quota renewed (the person sets its size, the guard learnt the spent one): the formula goes back.
  world.sandbox.context.quota.configure(1_000_000);
  world.sandbox.context.quota.reset();
  session.requireSignedIn().data.quota.configure({ quotaLimit: 1_000_000 });
  const answered = await controller.restore(await controller.offerRestore({ kind: "workbook" }));
  expect(restoreSummary(answered)).toBe("Restored 1 RENT formula.");
  expect(workbook.sheet("Sheet1").cell(0, 2)).toMatchObject({
    formula: '=RENT.PROPERTY(A2:A4, "asking_rent")',
    value: rentOfFirst,
  });
  expect(kept()).toEqual([]);
});
