/**
 * Where Insert formula writes, over the host stand-in's workbook (Excel's batch rules, its spills): never
 * inside a spill, even where the spill's values are blank and read "" like empty cells.
 */
import {
  firstFreeOffset,
  markSpills,
  placeBesideSelection,
  requireFree,
} from "../../src/taskpane/insert/insertTarget";
import { InsertController } from "../../src/taskpane/insert/insertController";
import type { Session } from "../../src/session/session";
import { Calculator } from "../host/page/calculator";
import { HOST_PROFILES, type HostProfileName } from "../host/profiles";
import { excelNamespace, type StandInRequestContext } from "../host/standin/excelApi";
import type { HostBridge } from "../host/standin/hostBridge";
import { Workbook } from "../host/workbook/workbook";

describe("firstFreeOffset", () => {
  it("finds the first run of free columns across every row", () => {
    const window = [
      ["", 5, "", "", ""],
      ["", "", "x", "", ""],
    ];
    // Column 0 is free but only one wide; 1 and 2 hold something in some row; 3 and 4 are free in both rows.
    expect(firstFreeOffset(window, 1)).toBe(0);
    expect(firstFreeOffset(window, 2)).toBe(3);
  });

  it("counts a formula, a constant or a spilled value as taken, and null as free", () => {
    expect(firstFreeOffset([["=RENT.MARKET(1)", 0, false, null]], 1)).toBe(3);
  });

  it("has no place when no run is wide enough", () => {
    expect(firstFreeOffset([["", "a", "", ""]], 3)).toBeUndefined();
    expect(firstFreeOffset([], 1)).toBeUndefined();
  });

  it("counts a blank cell of a spill as taken once the spills are marked", () => {
    // A window over C2:F2; the spill B1:D3 covers C2 and D2, blank as they read.
    const at = { row: 1, column: 2, rowCount: 1, columnCount: 4 };
    const marked = markSpills([["", "", "", ""]], at, [{ row: 0, column: 1, rowCount: 3, columnCount: 3 }]);
    expect(firstFreeOffset(marked, 2)).toBe(2);
  });
});

/** A spilled array of blanks below and right of its first cell: "" reads like an empty cell. */
const BLANKS = (rows: number, columns: number) =>
  Array.from({ length: rows }, (_, r) =>
    Array.from({ length: columns }, (_, c) => (r === 0 && c === 0 ? "head" : "")),
  );

function host(profileName: HostProfileName = "m365-windows") {
  const profile = HOST_PROFILES[profileName];
  const workbook = new Workbook();
  const calculator = new Calculator(
    workbook,
    "RENT",
    [{ id: "BLANKS", name: "BLANKS", parameters: [{ name: "rows" }, { name: "columns" }] }],
    profile,
  );
  calculator.registerFunction("BLANKS", async (rows: unknown, columns: unknown) =>
    BLANKS(Number(rows), Number(columns)),
  );
  const bridge: HostBridge = {
    workbook,
    profile,
    outside: { browserWindows: [], windowOpens: [], blobDownloads: [] },
    registerFunction: (id, implementation) => calculator.registerFunction(id, implementation),
  };
  const excel = excelNamespace(bridge);
  let syncs = 0;
  const run = <T>(batch: (context: Excel.RequestContext) => Promise<T>) =>
    excel.run((context: StandInRequestContext) => {
      const sync = context.sync.bind(context);
      context.sync = () => {
        syncs++;
        return sync();
      };
      return batch(context as unknown as Excel.RequestContext);
    });
  const calculated = async () => {
    while (calculator.calculatingCount() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  const sheet = (context: Excel.RequestContext) => context.workbook.worksheets.getItem("Sheet1");
  return { workbook, run, calculated, sheet, syncs: () => syncs };
}

describe("Insert formula and other formulas' spills", () => {
  it("refuses cells for one formula that are blank values of another formula's spill, naming it", async () => {
    const { workbook, run, calculated, sheet } = host();
    workbook.enter("Sheet1", 0, 4, "=RENT.BLANKS(3, 3)");
    await calculated();
    expect(workbook.sheet("Sheet1").spills.get("0,4")).toEqual({
      row: 0,
      column: 4,
      rowCount: 3,
      columnCount: 3,
    });
    // F2:G2 read "" (blank values of E1's spill); H2 is outside it.
    await expect(
      run((context) =>
        requireFree(context, sheet(context), { row: 1, column: 5, rowCount: 1, columnCount: 2 }),
      ),
    ).rejects.toThrow(
      "F2:G2 is not empty (part of the spill of E1): select an empty cell with room for 2 formulas across.",
    );
    // Only the last of three cells across in the spill: still refused.
    await expect(
      run((context) =>
        requireFree(context, sheet(context), { row: 2, column: 2, rowCount: 1, columnCount: 3 }),
      ),
    ).rejects.toThrow("C3:E3 is not empty (part of the spill of E1)");
    await expect(
      run((context) =>
        requireFree(context, sheet(context), { row: 1, column: 7, rowCount: 1, columnCount: 2 }),
      ),
    ).resolves.toBeUndefined();
    await expect(
      run((context) =>
        requireFree(context, sheet(context), { row: 3, column: 4, rowCount: 1, columnCount: 1 }),
      ),
    ).resolves.toBeUndefined();
  });

  it("moves a block past another formula's spill of blanks beside the selection, and says why", async () => {
    const { workbook, run, calculated, sheet } = host();
    workbook.enter("Sheet1", 1, 0, "Austin");
    workbook.enter("Sheet1", 2, 0, "Dallas");
    // B1's spill covers B1:C3: B2:C3, right beside A2:A3, holds only its blank values.
    workbook.enter("Sheet1", 0, 1, "=RENT.BLANKS(3, 2)");
    await calculated();
    const selection = { row: 1, column: 0, rowCount: 2, columnCount: 1 };
    const place = await run((context) => placeBesideSelection(context, sheet(context), selection, 2));
    expect(place.rect).toEqual({ row: 1, column: 3, rowCount: 2, columnCount: 2 });
    expect(place.skippedSpill).toEqual({ row: 0, column: 1, rowCount: 3, columnCount: 2 });
    expect(place.sourceSpill).toBeUndefined();

    // The pane's Insert: the formula goes to D2 under its header row, and B1's spill stays whole.
    workbook.select("Sheet1", selection);
    const controller = new InsertController({} as Session, run);
    const planned = await controller.insert("market", undefined, ["rent_avg_t30", "leased_percent_avg_t30"]);
    expect(planned.address).toBe("D2");
    expect(planned.with).toBe("with its header row in D1:E1");
    expect(planned.note).toBe("B1:C3 is inside the spill of B1");
    await calculated();
    expect(workbook.sheet("Sheet1").cell(0, 3)?.value).toBe("Asking rent, avg 30 d");
    expect(workbook.sheet("Sheet1").cell(1, 3)?.formula).toBe(
      '=RENT.MARKET(A2:A3, "rent_avg_t30,leased_percent_avg_t30")',
    );
    expect(workbook.sheet("Sheet1").cell(1, 1)?.formula).toBeUndefined();
    expect(workbook.sheet("Sheet1").cell(0, 1)?.value).toBe("head");
  });

  it("puts a block whose cells start in the sheet's first row without a header row, and says so", async () => {
    const { workbook, run, calculated } = host();
    workbook.enter("Sheet1", 0, 0, "Austin");
    workbook.enter("Sheet1", 1, 0, "Dallas");
    workbook.select("Sheet1", { row: 0, column: 0, rowCount: 2, columnCount: 1 });
    const controller = new InsertController({} as Session, run);
    const planned = await controller.insert("market", undefined, ["rent_avg_t30"]);
    expect(planned).toEqual({
      address: "B1",
      formulas: ['=RENT.MARKET(A1:A2, "rent_avg_t30")'],
      block: true,
      note: "no header row: the selected cells start in the sheet's first row",
    });
    await calculated();
    expect(workbook.sheet("Sheet1").cell(0, 1)?.formula).toBe('=RENT.MARKET(A1:A2, "rent_avg_t30")');
  });

  it("reads the spills in a bounded number of syncs, however many formulas the sheet holds", async () => {
    const { workbook, run, calculated, sheet, syncs } = host();
    // Forty formulas above and left of the target, each spilling blanks; the last one's spill covers J21.
    for (let row = 0; row < 20; row++) {
      workbook.enter("Sheet1", row, 0, "=RENT.BLANKS(1, 2)");
      workbook.enter("Sheet1", row, 8, row === 19 ? "=RENT.BLANKS(2, 3)" : "=RENT.BLANKS(1, 1)");
    }
    await calculated();
    const before = syncs();
    await expect(
      run((context) =>
        requireFree(context, sheet(context), { row: 20, column: 9, rowCount: 1, columnCount: 1 }),
      ),
    ).rejects.toThrow("J21 is not empty (part of the spill of I20)");
    // Two reads: the formulas that could reach it, then their spills (the refusal ends the batch there).
    expect(syncs() - before).toBe(2);
  });

  it("places a block beside a 40,000-row export on the web, reading no request or response over 5 MB", async () => {
    const { workbook, run, sheet } = host("web");
    // An export's id column and two text columns: their formulas alone read back about 6 MB.
    const rows = 40_000;
    workbook.write("Sheet1", { row: 0, column: 0, rowCount: rows, columnCount: 3 }, (r, c) =>
      c === 0 ? r + 1 : `${"concession text ".repeat(4)}${r}`,
    );
    const selection = { row: 0, column: 0, rowCount: rows, columnCount: 1 };
    const place = await run((context) => placeBesideSelection(context, sheet(context), selection, 2));
    expect(place.rect).toEqual({ row: 0, column: 3, rowCount: rows, columnCount: 2 });
    expect(place.skipped).toEqual({ row: 0, column: 1, rowCount: rows, columnCount: 2 });
  });
});
