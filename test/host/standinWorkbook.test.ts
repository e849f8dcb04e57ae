/**
 * The stand-in behaves like Excel where the add-in depends on it: the add-in's own workbook code
 * (src/excel: table export, freeze, restore, refresh) runs against the stand-in and the host's calculator
 * here, in Node, with fake RENT functions, and the workbook ends up as it would in Excel.
 */
import { freezeRentFormulas, restoreRentFormulas } from "../../src/excel/freeze";
import { FROZEN_STORE_SHEET_NAME } from "../../src/excel/frozenFormulaStore";
import { reenterUnresolvedNames } from "../../src/excel/recalculate";
import { refreshRentFormulas } from "../../src/excel/refresh";
import { shapeTable } from "../../src/tables/tableData";
import { writeTable } from "../../src/excel/tableWriter";
import { Calculator } from "./page/calculator";
import { HOST_PROFILES, type HostProfileName } from "./profiles";
import { excelNamespace, type StandInRequestContext } from "./standin/excelApi";
import type { HostBridge } from "./standin/hostBridge";
import { officeNamespace } from "./standin/office";
import { Workbook, cellKey } from "./workbook/workbook";

const UNITS = [
  ["unit", "rent"],
  ["U1", 1500],
  ["U2", 1525],
];

/** A rent and a date as a function returns them where the host holds data types (ExcelApi 1.19 and later). */
const RENTS = [
  [{ type: "Double", basicValue: 1890, numberFormat: "$#,##0.00" }],
  [{ type: "Double", basicValue: 46053, numberFormat: "yyyy-mm-dd" }],
];
const CARD = {
  type: "Entity",
  text: "The Dylan",
  properties: { asking_rent: { type: "Double", basicValue: 1890, numberFormat: "$#,##0.00" } },
  layouts: { card: { title: { property: "property_name" } } },
};

function host(profileName: HostProfileName = "m365-windows") {
  const profile = HOST_PROFILES[profileName];
  const workbook = new Workbook();
  const calculator = new Calculator(
    workbook,
    "RENT",
    [
      { id: "UNITS", name: "UNITS", parameters: [{ name: "compSetId" }] },
      { id: "RENTS", name: "RENTS", parameters: [] },
      { id: "CARD", name: "CARD", parameters: [] },
      // Streaming, and associated only when a test says so (an add-in that loads after the workbook).
      { id: "TICKS", name: "TICKS", parameters: [], options: { stream: true } },
    ],
    profile,
  );
  calculator.registerFunction("UNITS", async () => UNITS);
  calculator.registerFunction("RENTS", async () => RENTS);
  calculator.registerFunction("CARD", async () => CARD);
  const bridge: HostBridge = {
    workbook,
    profile,
    outside: { browserWindows: [], windowOpens: [], blobDownloads: [] },
    registerFunction: (id, implementation) => calculator.registerFunction(id, implementation),
  };
  const excel = excelNamespace(bridge);
  // The add-in asks Office.context.requirements which APIs the host has.
  Object.assign(globalThis, { Office: officeNamespace(bridge) });
  const run = <T>(batch: (context: Excel.RequestContext) => Promise<T>) =>
    excel.run((context: StandInRequestContext) => batch(context as unknown as Excel.RequestContext));
  const calculated = async () => {
    while (calculator.calculatingCount() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  const shown = (sheet: string, row: number, column: number) =>
    workbook.sheet(sheet).cell(row, column)?.value;
  return {
    workbook,
    calculator,
    run,
    calculated,
    shown,
    register: calculator.registerFunction.bind(calculator),
  };
}

afterEach(() => {
  delete (globalThis as { Office?: unknown }).Office;
});

describe("the stand-in under the add-in's workbook code", () => {
  it("exports a table to a new sheet: values, number formats, a table, a frozen header, the sheet shown", async () => {
    const { workbook, run, shown } = host();
    const data = shapeTable(
      ["id", "asking_rent", "collected_at"],
      [
        [1, 1500, "2026-01-31"],
        [2, 1525.5, "2026-02-28"],
      ],
    );
    const result = await run((context) => writeTable(context, data, { sheetName: "Comps: Austin" }));

    const sheet = workbook.sheet(result.sheetName);
    expect(workbook.activeSheetName).toBe(result.sheetName);
    expect(sheet.tables).toEqual([{ name: "Table1", address: result.address, hasHeaders: true }]);
    expect(sheet.frozenRows).toBe(1);
    expect([0, 1, 2].map((row) => shown(result.sheetName, row, 1))).toEqual([
      data.columns[1]?.header,
      1500,
      1525.5,
    ]);
    expect(sheet.cell(1, 2)?.numberFormat).toMatch(/y/);
  });

  it("freezes a spilled RENT formula to its values, then restores it and calculates it again", async () => {
    const { workbook, calculator, run, calculated, shown } = host();
    workbook.enter("Sheet1", 0, 0, "=RENT.UNITS(3)");
    await calculated();
    expect(workbook.sheet("Sheet1").spills.get(cellKey(0, 0))).toEqual({
      row: 0,
      column: 0,
      rowCount: 3,
      columnCount: 2,
    });

    const frozen = await run((context) => freezeRentFormulas(context, { kind: "workbook" }));
    expect(frozen.frozen).toHaveLength(1);
    expect(workbook.sheet("Sheet1").cell(0, 0)?.formula).toBeUndefined();
    expect(shown("Sheet1", 2, 1)).toBe(1525);
    expect(workbook.sheet(FROZEN_STORE_SHEET_NAME).visibility).toBe("VeryHidden");

    const restored = await run((context) => restoreRentFormulas(context, { kind: "workbook" }));
    expect(restored.restored).toHaveLength(1);
    await calculated();
    expect(workbook.sheet("Sheet1").cell(0, 0)?.formula).toBe("=RENT.UNITS(3)");
    expect(shown("Sheet1", 2, 1)).toBe(1525);
    expect(calculator.invocationCounts.get("UNITS")).toBe(2);
  });

  it("freezes a card to a card and rents and dates with their formats, where the host has data types (Microsoft 365)", async () => {
    const { workbook, run, calculated } = host("m365-windows");
    workbook.enter("Sheet1", 0, 0, "=RENT.CARD()");
    workbook.enter("Sheet1", 0, 2, "=RENT.RENTS()");
    await calculated();

    const frozen = await run((context) => freezeRentFormulas(context, { kind: "workbook" }));
    expect(frozen.frozen).toHaveLength(2);
    const sheet = workbook.sheet("Sheet1");
    expect(sheet.cell(0, 0)).toMatchObject({ value: "The Dylan", entity: { text: "The Dylan" } });
    expect(sheet.cell(0, 0)?.formula).toBeUndefined();
    expect(sheet.cell(0, 2)).toMatchObject({ value: 1890, valueFormat: "$#,##0.00" });
    expect(sheet.cell(1, 2)).toMatchObject({ value: 46053, valueFormat: "yyyy-mm-dd" });
  });

  it("freezes for sharing: a card as its text, rents and dates as plain numbers in the cell's own format", async () => {
    const { workbook, run, calculated } = host("m365-windows");
    workbook.enter("Sheet1", 0, 0, "=RENT.CARD()");
    workbook.enter("Sheet1", 0, 2, "=RENT.RENTS()");
    await calculated();

    const frozen = await run((context) =>
      freezeRentFormulas(context, { kind: "workbook" }, { forSharing: true }),
    );
    expect(frozen.frozen).toHaveLength(2);
    const sheet = workbook.sheet("Sheet1");
    // What Excel 2021 and older read: no data type left in any cell, each format on the cell itself.
    expect(sheet.cell(0, 0)).toEqual({ value: "The Dylan" });
    expect(sheet.cell(0, 2)).toEqual({ value: 1890, numberFormat: "$#,##0.00" });
    expect(sheet.cell(1, 2)).toEqual({ value: 46053, numberFormat: "yyyy-mm-dd" });
  });

  it("freezes plain values where the host has no data types in functions (Office 2024)", async () => {
    const { workbook, run, calculated } = host("office2024-windows");
    workbook.enter("Sheet1", 0, 0, "=RENT.UNITS(3)");
    await calculated();
    await run((context) => freezeRentFormulas(context, { kind: "workbook" }));
    expect(workbook.sheet("Sheet1").cell(2, 1)).toMatchObject({ value: 1525 });
    expect(workbook.sheet("Sheet1").cell(0, 0)?.formula).toBeUndefined();
  });

  it("refreshes by entering each RENT formula again, which invokes it again", async () => {
    const { workbook, calculator, run, calculated } = host();
    workbook.enter("Sheet1", 0, 0, "=RENT.UNITS(3)");
    workbook.enter("Sheet1", 0, 4, "plain text");
    await calculated();
    const refreshed = await run((context) => refreshRentFormulas(context, { kind: "sheet" }));
    await calculated();
    expect(refreshed.cells.map((cell) => cell.address)).toEqual(["A1"]);
    expect(calculator.invocationCounts.get("UNITS")).toBe(2);
  });

  it("enters again a streaming formula left at #NAME? by an add-in that loaded after it calculated", async () => {
    const { workbook, calculator, run, calculated, shown, register } = host();
    workbook.enter("Sheet1", 0, 0, "=RENT.TICKS()");
    workbook.enter("Sheet1", 0, 1, "=RENT.UNITS(3)");
    await calculated();
    expect(shown("Sheet1", 0, 0)).toBe("#NAME?");

    register("TICKS", (invocation) => (invocation as { setResult(value: unknown): void }).setResult(42));
    await calculated();
    // As in Excel (office-js #6355): the function's loading leaves the cell as it was.
    expect(shown("Sheet1", 0, 0)).toBe("#NAME?");

    const entered = await run(reenterUnresolvedNames);
    await calculated();
    expect(entered).toBe(1);
    expect(shown("Sheet1", 0, 0)).toBe(42);
    // Only that cell: a cell that shows its answer is not asked again.
    expect(calculator.invocationCounts.get("UNITS")).toBe(1);
  });

  it("keeps Excel's batch rules: load and sync before reading, a missing sheet fails the sync", async () => {
    const { run } = host();
    await run(async (context) => {
      const range = context.workbook.worksheets.getActiveWorksheet().getRangeByIndexes(0, 0, 1, 1);
      expect(() => range.values).toThrow(/not available/);
      range.load("values");
      await context.sync();
      expect(range.values).toEqual([[""]]);
      context.workbook.worksheets.getItem("Nowhere");
      await expect(context.sync()).rejects.toMatchObject({ code: "ItemNotFound" });
    });
  });
});

/** Sheet names Excel writes bare although they are not plain ASCII, and ones it quotes although they are. */
const SHEET_NAMES = ["École", "Лист1", "Q1", "FY24", "O'Brien", "My Sheet"];

describe("the as-of comment of a frozen formula, on sheets Excel names its own way", () => {
  const asOfText = () => "As of: frozen for the test.";
  const commentsOn = (workbook: Workbook, sheet: string) =>
    workbook.comments
      .filter((comment) => comment.sheet === sheet)
      .map(({ row, column, content }) => ({ row, column, content }));

  it.each(SHEET_NAMES)("Freeze then Restore on %s removes the comment it wrote", async (sheet) => {
    const { workbook, run, calculated } = host();
    workbook.addSheet(sheet);
    workbook.enter(sheet, 1, 2, "=RENT.UNITS(3)");
    await calculated();

    await run((context) => freezeRentFormulas(context, { kind: "workbook" }, { asOfText }));
    expect(commentsOn(workbook, sheet)).toEqual([{ row: 1, column: 2, content: asOfText() }]);

    const restored = await run((context) => restoreRentFormulas(context, { kind: "workbook" }));
    expect(restored.restored).toHaveLength(1);
    expect(commentsOn(workbook, sheet)).toEqual([]);
  });

  it.each(SHEET_NAMES)("freezing %s a second time leaves one comment", async (sheet) => {
    const { workbook, run, calculated } = host();
    workbook.addSheet(sheet);
    workbook.enter(sheet, 1, 2, "=RENT.UNITS(3)");
    await calculated();
    // A comment Restore must keep (someone edited it), and so a cell the next Freeze must not comment again.
    await run((context) => freezeRentFormulas(context, { kind: "workbook" }, { asOfText }));
    const written = workbook.comments[0]!;
    workbook.deleteComment(written.id);
    workbook.addComment(sheet, written.row, written.column, "Checked against the rent roll.");
    await run((context) => restoreRentFormulas(context, { kind: "workbook" }));
    await calculated();

    await run((context) => freezeRentFormulas(context, { kind: "workbook" }, { asOfText }));
    expect(commentsOn(workbook, sheet)).toEqual([
      { row: 1, column: 2, content: "Checked against the rent roll." },
    ]);
  });
});

describe("the host's calculation", () => {
  it("cancels a running call when its input changes, and shows only the newer answer", async () => {
    const workbook = new Workbook();
    const calculator = new Calculator(
      workbook,
      "RENT",
      [{ id: "ECHO", name: "ECHO", parameters: [{ name: "value" }] }],
      HOST_PROFILES["m365-windows"],
    );
    const cancelled: unknown[] = [];
    const pending = new Map<unknown, (answer: unknown) => void>();
    calculator.registerFunction("ECHO", (value, invocation) => {
      const call = invocation as CustomFunctions.CancelableInvocation;
      call.onCanceled = () => cancelled.push(value);
      return new Promise((resolve) => pending.set(value, resolve));
    });
    workbook.enter("Sheet1", 0, 0, "slow");
    workbook.enter("Sheet1", 0, 1, "=RENT.ECHO(A1)");
    await new Promise((resolve) => setTimeout(resolve, 1));
    workbook.enter("Sheet1", 0, 0, "fast");
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(cancelled).toEqual(["slow"]);

    pending.get("fast")?.("fast answer");
    pending.get("slow")?.("stale answer");
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(workbook.sheet("Sheet1").cell(0, 1)?.value).toBe("fast answer");
  });

  it("shows each result a streaming function sets, and cancels it when the cell is calculated again", async () => {
    const workbook = new Workbook();
    const calculator = new Calculator(
      workbook,
      "RENT",
      [{ id: "WAIT", name: "WAIT", parameters: [{ name: "value" }], options: { stream: true } }],
      HOST_PROFILES["m365-windows"],
    );
    const calls: {
      value: unknown;
      call: CustomFunctions.StreamingInvocation<unknown>;
      cancelled: boolean;
    }[] = [];
    calculator.registerFunction("WAIT", (value, invocation) => {
      const entry = {
        value,
        call: invocation as CustomFunctions.StreamingInvocation<unknown>,
        cancelled: false,
      };
      entry.call.onCanceled = () => (entry.cancelled = true);
      calls.push(entry);
    });
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    workbook.enter("Sheet1", 0, 0, "a");
    workbook.enter("Sheet1", 0, 1, "=RENT.WAIT(A1)");
    await tick();
    calls[0]?.call.setResult("export running, about 4 min");
    await tick();
    expect(workbook.sheet("Sheet1").cell(0, 1)?.value).toBe("export running, about 4 min");
    calls[0]?.call.setResult([
      ["date", "avg_rent"],
      ["2026-01", 1890],
    ]);
    await tick();
    expect(workbook.sheet("Sheet1").cell(1, 2)?.value).toBe(1890);
    workbook.enter("Sheet1", 0, 0, "b");
    await tick();
    expect(calls.map((entry) => [entry.value, entry.cancelled])).toEqual([
      ["a", true],
      ["b", false],
    ]);
    // The cancelled call's later results no longer reach the cell.
    calls[0]?.call.setResult("stale");
    calls[1]?.call.setResult("export submitting");
    await tick();
    expect(workbook.sheet("Sheet1").cell(0, 1)?.value).toBe("export submitting");
  });

  it("shows #SPILL! while the array's cells are taken, and spills once they are free", async () => {
    const { workbook, calculated, shown } = host();
    workbook.enter("Sheet1", 2, 1, "in the way");
    workbook.enter("Sheet1", 0, 0, "=RENT.UNITS(3)");
    await calculated();
    expect(shown("Sheet1", 0, 0)).toBe("#SPILL!");
    workbook.enter("Sheet1", 2, 1, "");
    await calculated();
    expect(shown("Sheet1", 0, 0)).toBe("unit");
    expect(shown("Sheet1", 2, 1)).toBe(1525);
  });
});
