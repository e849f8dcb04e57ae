/**
 * The stand-in behaves like Excel where the add-in depends on it: the add-in's own workbook code
 * (src/excel: table export, freeze, restore, refresh) runs against the stand-in and the host's calculator
 * here, in Node, with fake RENT functions, and the workbook ends up as it would in Excel.
 */
import { readBounded } from "../../src/excel/boundedReads";
import { freezeRentFormulas } from "../../src/excel/freeze";
import { restoreRentFormulas } from "../../src/excel/restore";
import { FROZEN_STORE_SHEET_NAME, readFrozenStore } from "../../src/excel/frozenFormulaStore";
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
/** A card the size of a property's whole record through valuesAsJson (about 9.6 KB). */
const BIG_CARD = {
  ...CARD,
  properties: { ...CARD.properties, description: { type: "String", basicValue: "x".repeat(9_400) } },
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
      { id: "CARDS", name: "CARDS", parameters: [{ name: "count" }] },
      // Streaming, and associated only when a test says so (an add-in that loads after the workbook).
      { id: "TICKS", name: "TICKS", parameters: [], options: { stream: true } },
    ],
    profile,
  );
  calculator.registerFunction("UNITS", async () => UNITS);
  calculator.registerFunction("RENTS", async () => RENTS);
  calculator.registerFunction("CARD", async () => CARD);
  calculator.registerFunction("CARDS", async (count) =>
    Array.from({ length: Number(count) }, () => [BIG_CARD]),
  );
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

describe("Excel's payload limits, under the add-in's workbook code", () => {
  it("fails a sync whose request or response passes 5 MB on the web, as Excel on the web does", async () => {
    const { run } = host("web");
    const sixMegabytes = Array.from({ length: 6_000 }, () => ["x".repeat(1_000)]);
    const rect = (context: Excel.RequestContext) =>
      context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(0, 0, 6_000, 1);
    await expect(
      run(async (context) => {
        rect(context).values = sixMegabytes;
        await context.sync();
      }),
    ).rejects.toMatchObject({
      code: "RequestPayloadSizeLimitExceeded",
      message: expect.stringContaining("The request payload size has exceeded the limit."),
    });
    // Each half goes through in its own request; reading both back in one does not.
    await run(async (context) => {
      const half = (row: number) =>
        context.workbook.worksheets.getItem("Sheet1").getRangeByIndexes(row, 0, 3_000, 1);
      half(0).values = sixMegabytes.slice(0, 3_000);
      await context.sync();
      half(3_000).values = sixMegabytes.slice(3_000);
      await context.sync();
    });
    await expect(
      run(async (context) => {
        rect(context).load("values");
        await context.sync();
      }),
    ).rejects.toMatchObject({ code: "ResponsePayloadSizeLimitExceeded" });
  });

  it("reads 6 MB of cells in requests Excel accepts, however wrong the first guess of a cell's size", async () => {
    const { workbook, run } = host("web");
    const text = (r: number) => `${r}`.padEnd(1_000, "x");
    workbook.write("Sheet1", { row: 0, column: 0, rowCount: 6_000, columnCount: 1 }, text);
    const rect = { row: 0, column: 0, rowCount: 6_000, columnCount: 1 };
    const [read] = await run((context) =>
      readBounded(context, [{ sheetName: "Sheet1", rect }], ["values"], { firstBytesPerCell: 1 }),
    );
    expect(read?.values).toHaveLength(6_000);
    expect(read?.values[5_999]).toEqual([text(5_999)]);
  });

  it("reads back 6,000 kept formulas with long as-of comments on the web, over 6 MB of store", async () => {
    const { workbook, run } = host("web");
    workbook.addSheet(FROZEN_STORE_SHEET_NAME);
    const asOf = "As of 2026-11-27: ".padEnd(1_050, "property answers from the service, ");
    workbook.write(FROZEN_STORE_SHEET_NAME, { row: 1, column: 0, rowCount: 6_000, columnCount: 1 }, (r) =>
      JSON.stringify({
        sheetName: "Sheet1",
        address: `A${r + 1}`,
        formula: "=RENT.UNITS(3)",
        rowCount: 1,
        columnCount: 1,
        asOf,
      }),
    );
    const store = await run((context) => readFrozenStore(context));
    expect(store.entries).toHaveLength(6_000);
    expect(store.entries[5_999]).toMatchObject({ address: "A6000", asOf });
  });

  it("freezes 600 property cards on the web: the cards are read in requests under 5 MB", async () => {
    const { workbook, run, calculated } = host("web");
    // Two blocks of 300 (one block of 600 would pass 5 MB as one function result).
    workbook.enter("Sheet1", 0, 0, "=RENT.CARDS(300)");
    workbook.enter("Sheet1", 0, 1, "=RENT.CARDS(300)");
    await calculated();
    const frozen = await run((context) => freezeRentFormulas(context, { kind: "workbook" }));
    expect(frozen.frozen.map((entry) => [entry.address, entry.rowCount])).toEqual([
      ["A1", 300],
      ["B1", 300],
    ]);
    const sheet = workbook.sheet("Sheet1");
    expect(sheet.cell(299, 1)).toMatchObject({ value: "The Dylan", entity: { text: "The Dylan" } });
    expect(sheet.cell(0, 0)?.formula).toBeUndefined();
  });

  it("finds the RENT formulas by their cells (getSpecialCellsOrNullObject), never reading the other used cells", async () => {
    const { workbook, run, calculated } = host("web");
    workbook.write("Sheet1", { row: 0, column: 0, rowCount: 5_000, columnCount: 2 }, (r, c) => r * 2 + c);
    workbook.enter("Sheet1", 10, 3, "=RENT.UNITS(3)");
    workbook.enter("Sheet1", 4_000, 4, "=RENT.UNITS(4)");
    await calculated();
    const before = workbook.addInCellReads;
    const refreshed = await run((context) => refreshRentFormulas(context, { kind: "workbook" }));
    expect(refreshed.cells.map((cell) => cell.address)).toEqual(["D11", "E4001"]);
    // The two formulas' own cells, however many cells the sheet uses.
    expect(workbook.addInCellReads - before).toBe(2);
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
  it("fails a function result over 5 MB, as Excel limits a custom function's payload", async () => {
    const { workbook, calculated, shown } = host("web");
    workbook.enter("Sheet1", 0, 0, "=RENT.CARDS(600)");
    await calculated();
    expect(shown("Sheet1", 0, 0)).toBe("#VALUE!");
    expect(workbook.sheet("Sheet1").cell(0, 0)?.errorMessage).toMatch(/5 MB/);
  });

  it("gives cells calling a streaming function with the same arguments one shared call", async () => {
    const workbook = new Workbook();
    const calculator = new Calculator(
      workbook,
      "RENT",
      [{ id: "WAIT", name: "WAIT", parameters: [{ name: "value" }], options: { stream: true } }],
      HOST_PROFILES["m365-windows"],
    );
    const calls: CustomFunctions.StreamingInvocation<unknown>[] = [];
    let cancelled = 0;
    calculator.registerFunction("WAIT", (_value, invocation) => {
      const call = invocation as CustomFunctions.StreamingInvocation<unknown>;
      call.onCanceled = () => cancelled++;
      calls.push(call);
    });
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    workbook.enter("Sheet1", 0, 0, "=RENT.WAIT(1)");
    await tick();
    calls[0]?.setResult("running");
    await tick();
    workbook.enter("Sheet1", 1, 0, "=RENT.WAIT(1)");
    workbook.enter("Sheet1", 2, 0, "=RENT.WAIT(2)");
    await tick();
    // A2 joins A1's call and shows its value at once; A3's other argument is a call of its own.
    expect(calls).toHaveLength(2);
    expect(workbook.sheet("Sheet1").cell(1, 0)?.value).toBe("running");
    calls[0]?.setResult("done");
    await tick();
    expect([0, 1].map((row) => workbook.sheet("Sheet1").cell(row, 0)?.value)).toEqual(["done", "done"]);
    // The call goes when the last cell on it does.
    workbook.enter("Sheet1", 0, 0, "");
    expect(cancelled).toBe(0);
    workbook.enter("Sheet1", 1, 0, "");
    expect(cancelled).toBe(1);
  });

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
