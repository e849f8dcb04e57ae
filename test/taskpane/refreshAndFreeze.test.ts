import { COMP_SETS } from "../../src/data/endpoints";
import { SHARED_ACCOUNT_ID } from "../../sandbox/data/clients";
import type { RunningSandbox } from "../../sandbox/server";
import { FROZEN_STORE_SHEET_NAME } from "../../src/excel/frozenFormulaStore";
import { currentCellRefresh, currentRefresh, endRefresh } from "../../src/functions/freshness";
import type { Session } from "../../src/session/session";
import {
  FreezeController,
  freezeSummary,
  restoreOfferText,
  restoreSummary,
} from "../../src/taskpane/freezeController";
import { RefreshController, statsLines } from "../../src/taskpane/refreshController";
import { SignInController } from "../../src/taskpane/signInController";
import { evaluateRent, underwritingWorkbook } from "../excel/support/rentWorkbook";
import { steppingClock } from "../support/steppingClock";
import { clientForm, newSession, newSettings, newVault, startPaneSandbox } from "./support/paneHarness";

let sandbox: RunningSandbox;
let session: Session;

beforeAll(async () => {
  sandbox = await startPaneSandbox();
  session = newSession();
  await new SignInController({ session, ...newSettings(), vault: newVault().vault }).signIn(
    clientForm(sandbox, "demo-pro"),
  );
  session.selectAccount(SHARED_ACCOUNT_ID);
});

afterAll(async () => {
  endRefresh();
  await sandbox.close();
});

afterEach(() => endRefresh());

describe("Refresh in the pane", () => {
  it("re-enters the sheet's RENT formulas, and ends once nothing has calculated for a while when Excel calls none", async () => {
    // The stand-in's RENT formulas show values without calling the functions, as formulas Excel does not call.
    const excel = underwritingWorkbook();
    const { now, sleep } = steppingClock(Date.parse("2026-11-25T15:00:00Z"));
    const refresh = new RefreshController(session, excel.excel.run, { now, sleep });

    const outcome = await refresh.refresh({ kind: "sheet", sheetName: "Model" });

    expect(outcome).toEqual({
      formulas: 2,
      at: expect.any(Number),
      stillCalculating: 0,
      report: { counts: { fresh: 0, current: 0, held: 0, failed: 0 }, reasons: [] },
    });
    // It waited a while for calls that never came, then ended: cells calculated later are no part of it.
    expect(outcome.at).toBeGreaterThanOrEqual(Date.parse("2026-11-25T15:00:05Z"));
    expect(currentRefresh()).toBeUndefined();
    // The workbook remembers it.
    await expect(refresh.lastRefresh()).resolves.toEqual({
      formulas: 2,
      at: outcome.at,
      counts: { fresh: 0, current: 0, held: 0, failed: 0 },
    });
    const rewritten = excel.requests
      .flatMap((r) => r.operations)
      .filter((op) => op.startsWith("range.formulas"));
    expect(rewritten).toHaveLength(2);
  });

  it("looks at the refreshed cells soon, then less often, never more than a second apart, until none is busy", async () => {
    // The RENT cells stay #BUSY! (their answers outstanding) until the test answers them at the sixth wait.
    const excel = underwritingWorkbook((formula) =>
      /RENT\./i.test(formula) ? [["#BUSY!"]] : evaluateRent(formula),
    );
    const waits: number[] = [];
    const refresh = new RefreshController(session, excel.excel.run, {
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length !== 6) return;
        // The two calls answer: their cells show values, and the refresh hears that they settled.
        excel.setValues("Model", "B2", [[1850]]);
        excel.setValues("Model", "B3", [[1900]]);
        for (const cell of ["Model!B2", "Model!B3"]) currentCellRefresh()?.settled(cell, Date.now());
      },
    });

    const outcome = await refresh.refresh({ kind: "sheet", sheetName: "Model" });

    expect(outcome).toMatchObject({ formulas: 2, at: expect.any(Number), stillCalculating: 0 });
    expect(waits).toHaveLength(6);
    // An answer within a fraction of a second is seen within a fraction of a second of it.
    expect(waits[0]).toBeLessThanOrEqual(250);
    for (const [index, wait] of waits.entries()) {
      expect(wait).toBeGreaterThanOrEqual(waits[index - 1] ?? 0);
      expect(wait).toBeLessThanOrEqual(1_000);
    }
    expect(waits.at(-1)).toBe(1_000);
  });

  it("does nothing, and asks for nothing fresh, where there are no RENT formulas", async () => {
    const excel = underwritingWorkbook();
    excel.addSheet("Notes");
    expect(
      await new RefreshController(session, excel.excel.run).refresh({ kind: "sheet", sheetName: "Notes" }),
    ).toEqual({ formulas: 0, stillCalculating: 0 });
    expect(currentRefresh()).toBeUndefined();
  });

  it("shows cache figures and clears the cache", async () => {
    const refresh = new RefreshController(session, underwritingWorkbook().excel.run);
    await session.requireSignedIn().data.read(COMP_SETS, {}, { accountId: SHARED_ACCOUNT_ID });
    const filled = await refresh.stats();
    expect(filled.cache.entries).toBeGreaterThan(0);
    expect(statsLines(filled)[0]).toMatch(new RegExp(`^Cache: ${filled.cache.entries} answers, `));

    await refresh.clearCache();

    const cleared = await refresh.stats();
    expect(cleared.cache.entries).toBe(0);
    expect(statsLines(cleared)[0]).toMatch(/^Cache: 0 answers, 0 bytes/);
  });
});

describe("Freeze to values in the pane", () => {
  it("freezes the selection only, then restores it", async () => {
    const excel = underwritingWorkbook();
    excel.selection = { sheet: "Model", rect: { row: 1, column: 1, rowCount: 1, columnCount: 1 } };
    const freeze = new FreezeController(excel.excel.run, session);

    const frozen = await freeze.freeze({ kind: "selection" });

    expect(freezeSummary(frozen)).toBe(
      "Replaced 1 RENT formula with its value. Restore formulas puts it back. The as-of (when frozen, the data's date, when fetched) is in a comment on its cell.",
    );
    // Calculated before the add-in's runtime saw it: the as-of says when it was frozen and that the rest is unknown.
    expect(excel.comments).toEqual([
      {
        address: "Model!B2",
        content: expect.stringMatching(
          /^Frozen by Rent Market on .*: when its data was fetched is not known\.$/,
        ),
      },
    ]);
    expect(excel.cellFormula("Model", "B2")).toBeUndefined();
    expect(excel.cellValue("Model", "B2")).toBe(1850);
    expect(excel.cellFormula("Model", "B3")).toBe('=IFERROR(rent.property(456,"asking_rent"),0)');
    expect(excel.findSheet(FROZEN_STORE_SHEET_NAME)?.visibility).toBe("VeryHidden");

    const restored = await freeze.restore(await freeze.offerRestore({ kind: "selection" }));

    expect(restoreSummary(restored)).toBe("Restored 1 RENT formula.");
    expect(excel.cellFormula("Model", "B2")).toBe('=RENT.PROPERTY(123,"asking_rent")');
    expect(excel.comments).toEqual([]);
  });

  it("freezes the workbook, spills included, and names the formulas still calculating", async () => {
    const excel = underwritingWorkbook();
    excel.setFormula("Model", "F3", "=RENT.FORECAST(2)");
    const freeze = new FreezeController(excel.excel.run, session);

    const frozen = await freeze.freeze({ kind: "workbook" });

    expect(frozen.frozen).toHaveLength(4);
    expect(freezeSummary(frozen)).toMatch(/^Replaced 4 RENT formulas with their values\./);
    expect(excel.cellFormula("Comps", "A1")).toBeUndefined();
    expect(excel.cellValue("Comps", "A2")).toBe("U1");
    expect(freezeSummary(frozen)).toMatch(/1 formula was still calculating and stayed as it is \(Model!F3\)/);
    const offer = await freeze.offerRestore({ kind: "workbook" });
    expect(restoreSummary(await freeze.restore(offer))).toBe("Restored 4 RENT formulas.");
    expect(excel.cellFormula("Comps", "A1")).toBe("=RENT.UNITS(3)");
  });

  it("says when there is nothing to freeze or restore", async () => {
    const excel = underwritingWorkbook();
    excel.addSheet("Notes");
    const freeze = new FreezeController(excel.excel.run, session);
    expect(freezeSummary(await freeze.freeze({ kind: "sheet", sheetName: "Notes" }))).toBe(
      "No RENT formulas here to freeze.",
    );
    expect(restoreOfferText(await freeze.offerRestore({ kind: "sheet", sheetName: "Notes" }))).toBe(
      "No frozen RENT formulas here to restore.",
    );
  });
});
