/**
 * An in-memory workbook behind office-addin-mock objects, shaped like the part of Excel's object model that
 * src/excel uses. office-addin-mock gives load/sync semantics (a property read before `load` + `sync` is an
 * error string, not a value); this file adds what it leaves to us: collections, a cell grid, and a
 * `context.sync()` that applies the queued writes and measures each request's serialized payload, so tests
 * can check every request against Excel's 5 MB limit.
 */
import "./officeAppOnly";
import { OfficeMockObject } from "office-addin-mock";
import { isValidError } from "office-addin-mock/lib/possibleErrors";
import { parseCellAddress, rectAddress, type CellRect } from "../../../src/excel/a1";
import { cellRuns } from "../../support/cellRuns";
import { excelAddress } from "../../host/workbook/excelAddress";
import { jsonByteLength } from "../../../src/tables/payloadBytes";

/** Each range mock's address, as Excel writes it (what a comment added on the range is listed under). */
const rangeAddresses = new WeakMap<object, string>();

export type MockCellValue = string | number | boolean;

export interface SheetState {
  name: string;
  visibility: string;
  values: MockCellValue[][];
  formulas: Map<string, string>;
  numberFormats: string[][];
  /** Anchor "row,column" -> size of the array its formula spills. */
  spills: Map<string, { rowCount: number; columnCount: number }>;
  /** How many times each row received values (the exactly-once check of big writes). */
  rowValueWrites: number[];
  frozenRows: number;
  tables: { address: string; hasHeaders: boolean }[];
  autofitted: string[];
}

export interface RequestRecord {
  /** Serialized size of everything queued before this sync. */
  bytes: number;
  operations: string[];
}

export interface MockExcelOptions {
  /** What a formula written into a cell evaluates to (a 2-D array spills); unknown formulas give "#BUSY!". */
  evaluate?: (formula: string) => MockCellValue[][] | undefined;
}

type MockObject = OfficeMockObject & Record<string, unknown>;

/**
 * One RequestContext, as each Excel.run has its own: the proxy objects made through it, which its `sync()`
 * applies and loads, and what its syncs hand its collections. Without it every sync would go over every object
 * any earlier batch made, which costs a long test quadratic time.
 */
interface Batch {
  readonly tracked: { mock: MockObject; onSync: () => void }[];
  readonly afterSync: (() => void)[];
  readonly context: Excel.RequestContext;
}

const key = (row: number, column: number) => `${row},${column}`;
const READABLE_RANGE_PROPERTIES = ["values", "formulas", "numberFormat"] as const;
type RangeProperty = (typeof READABLE_RANGE_PROPERTIES)[number];
const FORBIDDEN_SHEET_CHARS = /[[\]:*?/\\]/;

function propertyNames(argument: unknown): string[] {
  if (typeof argument === "string") return argument.split(",").map((part) => part.trim());
  if (Array.isArray(argument)) return argument.flatMap(propertyNames);
  if (argument && typeof argument === "object") return Object.keys(argument);
  return [];
}

/**
 * Excel's "single input copy": a 1x1 input written to a larger range fills every cell of it, as Ctrl+Enter
 * does. Any other shape must match the range exactly.
 */
function isSingleCell(input: unknown): input is [[unknown]] {
  return Array.isArray(input) && input.length === 1 && Array.isArray(input[0]) && input[0].length === 1;
}

export class MockExcel {
  readonly sheets: SheetState[] = [];
  readonly requests: RequestRecord[] = [];
  readonly context: Excel.RequestContext;
  /** Used as the global `Excel` by code that calls `Excel.run`. */
  readonly excel: { run: <T>(batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T> };
  calculations: string[] = [];
  selection: { sheet: string; rect: CellRect } | undefined;
  activeSheet: string | undefined;

  private pending: RequestRecord = { bytes: 0, operations: [] };
  private readonly evaluate: MockExcelOptions["evaluate"];

  constructor(options: MockExcelOptions = {}) {
    this.evaluate = options.evaluate;
    this.context = this.newContext();
    // Each Excel.run has its own RequestContext, as in Excel; `context` is one for code a test calls directly.
    this.excel = { run: async (batch) => batch(this.newContext()) };
  }

  private newContext(): Excel.RequestContext {
    const tracked: Batch["tracked"] = [];
    const afterSync: Batch["afterSync"] = [];
    const batch: Batch = {
      tracked,
      afterSync,
      // Read only by the batch's own syncs, which run after it is made.
      get context() {
        return context;
      },
    };
    const context = new OfficeMockObject({
      workbook: {
        worksheets: this.worksheetsSeed(batch),
        comments: this.commentsSeed(batch),
        settings: this.settingsSeed(batch),
        application: {
          calculate: (type: string) => {
            this.operation(`calculate ${type}`);
            this.calculations.push(type);
          },
        },
        getSelectedRange: () => {
          if (!this.selection) throw new Error("No selection");
          return this.rangeMock(this.sheet(this.selection.sheet), this.selection.rect, batch);
        },
      },
      sync: () => this.sync(batch),
    }) as unknown as Excel.RequestContext;
    return context;
  }

  addSheet(name: string, visibility = "Visible"): SheetState {
    if (FORBIDDEN_SHEET_CHARS.test(name) || name.length > 31 || name.trim() === "") {
      throw new Error(`InvalidArgument: the sheet name "${name}" is not valid in Excel`);
    }
    if (this.findSheet(name)) throw new Error(`ItemAlreadyExists: a sheet named "${name}" exists`);
    const state: SheetState = {
      name,
      visibility,
      values: [],
      formulas: new Map(),
      numberFormats: [],
      spills: new Map(),
      rowValueWrites: [],
      frozenRows: 0,
      tables: [],
      autofitted: [],
    };
    this.sheets.push(state);
    this.activeSheet ??= name;
    return state;
  }

  findSheet(name: string): SheetState | undefined {
    return this.sheets.find((sheet) => sheet.name.toUpperCase() === name.toUpperCase());
  }

  sheet(name: string): SheetState {
    const sheet = this.findSheet(name);
    if (!sheet) throw new Error(`ItemNotFound: no sheet named "${name}"`);
    return sheet;
  }

  /** Puts a formula in a cell as Excel would after calculating it: its value, and its spill when it is an array. */
  setFormula(sheetName: string, address: string, formula: string): void {
    const { row, column } = parseCellAddress(address);
    this.writeFormula(this.sheet(sheetName), row, column, formula);
  }

  setValues(sheetName: string, address: string, values: MockCellValue[][]): void {
    const { row, column } = parseCellAddress(address);
    const sheet = this.sheet(sheetName);
    values.forEach((rowValues, r) =>
      rowValues.forEach((v, c) => this.writeValue(sheet, row + r, column + c, v)),
    );
  }

  cellValue(sheetName: string, address: string): MockCellValue {
    const { row, column } = parseCellAddress(address);
    return this.sheet(sheetName).values[row]?.[column] ?? "";
  }

  cellFormula(sheetName: string, address: string): string | undefined {
    const { row, column } = parseCellAddress(address);
    return this.sheet(sheetName).formulas.get(key(row, column));
  }

  // ---- the object model -------------------------------------------------------------------------------

  private track(batch: Batch, mock: MockObject, onSync: () => void = () => undefined): MockObject {
    batch.tracked.push({ mock, onSync });
    return mock;
  }

  private operation(description: string, payload?: unknown): void {
    this.pending.operations.push(description);
    this.pending.bytes += jsonByteLength(description) + (payload === undefined ? 0 : jsonByteLength(payload));
  }

  private worksheetsSeed(batch: Batch): Record<string, unknown> {
    let loadedItems: MockObject[] | undefined;
    const collection: Record<string, unknown> = {
      add: (name: string) => {
        this.operation("worksheets.add", name);
        return this.sheetMock(this.addSheet(name), batch);
      },
      getItem: (name: string) => this.sheetMock(this.sheet(name), batch),
      getItemOrNullObject: (name: string) => {
        const sheet = this.findSheet(name);
        if (sheet) return this.sheetMock(sheet, batch);
        const nullSheet = new OfficeMockObject({ name: undefined }) as MockObject;
        nullSheet.isNullObject = true;
        return nullSheet;
      },
      getActiveWorksheet: () => this.sheetMock(this.sheet(this.activeSheet ?? ""), batch),
      // Collections: office-addin-mock has none, so `load` snapshots the items and `sync` hands them over.
      load: (argument: unknown) => {
        const names = propertyNames(argument).map((name) => name.replace(/^items\//, ""));
        loadedItems = this.sheets.map((sheet) => {
          const item = this.sheetMock(sheet, batch);
          item.load(names.filter((name) => name !== "items"));
          return item;
        });
      },
    };
    batch.afterSync.push(() => {
      const worksheets = (batch.context as unknown as { workbook: { worksheets: Record<string, unknown> } })
        .workbook.worksheets;
      if (loadedItems) worksheets.items = loadedItems;
      loadedItems = undefined;
    });
    return collection;
  }

  /** Comments by their cell ("Model!B2"), and the add-in's workbook settings. */
  readonly comments: { address: string; content: string }[] = [];
  readonly settings = new Map<string, unknown>();

  private commentsSeed(batch: Batch): Record<string, unknown> {
    let loadedItems: unknown[] | undefined;
    const collection: Record<string, unknown> = {
      // Excel takes the cell as a Range or as its address.
      add: (cell: MockObject | string, content: string) => {
        const address = typeof cell === "string" ? cell : rangeAddresses.get(cell);
        if (address === undefined) throw new Error("comments.add: not a range of this mock");
        this.operation("comments.add", address);
        this.comments.push({ address, content });
      },
      load: () => {
        loadedItems = this.comments.map((comment) => ({
          content: comment.content,
          getLocation: () => ({ load: () => undefined, address: comment.address }),
          delete: () => {
            this.operation("comment.delete", comment.address);
            this.comments.splice(this.comments.indexOf(comment), 1);
          },
        }));
      },
    };
    batch.afterSync.push(() => {
      const comments = (batch.context as unknown as { workbook: { comments: Record<string, unknown> } })
        .workbook.comments;
      if (loadedItems) comments.items = loadedItems;
      loadedItems = undefined;
    });
    return collection;
  }

  private settingsSeed(batch: Batch): Record<string, unknown> {
    return {
      add: (key: string, value: unknown) => {
        this.operation("settings.add", key);
        this.settings.set(key, value);
      },
      getItemOrNullObject: (key: string) => {
        const setting = new OfficeMockObject({ value: this.settings.get(key) }) as MockObject;
        setting.isNullObject = !this.settings.has(key);
        return this.track(batch, setting);
      },
    };
  }

  private sheetMock(state: SheetState, batch: Batch): MockObject {
    const sheetMock = new OfficeMockObject({
      name: state.name,
      visibility: state.visibility,
      getRangeByIndexes: (row: number, column: number, rowCount: number, columnCount: number) =>
        this.rangeMock(state, { row, column, rowCount, columnCount }, batch),
      getUsedRangeOrNullObject: () => {
        const used = this.usedRect(state);
        return used ? this.rangeMock(state, used, batch) : this.nullRange();
      },
      freezePanes: {
        freezeRows: (count: number) => {
          this.operation("freezeRows", count);
          state.frozenRows = count;
        },
      },
      tables: {
        add: (address: string, hasHeaders: boolean) => {
          this.operation("tables.add", address);
          state.tables.push({ address, hasHeaders });
          return new OfficeMockObject({ name: `Table${state.tables.length}` });
        },
      },
      delete: () => {
        this.operation("worksheet.delete", state.name);
        this.sheets.splice(this.sheets.indexOf(state), 1);
      },
      activate: () => {
        this.operation("worksheet.activate", state.name);
        this.activeSheet = state.name;
      },
    }) as MockObject;
    sheetMock.isNullObject = false;
    const initialVisibility = sheetMock.visibility;
    return this.track(batch, sheetMock, () => {
      const visibility = sheetMock.visibility;
      if (visibility !== initialVisibility && typeof visibility === "string" && !isValidError(visibility)) {
        this.operation("worksheet.visibility", visibility);
        state.visibility = visibility;
      }
    });
  }

  private nullRange(): MockObject {
    const mock = new OfficeMockObject({
      address: undefined,
      rowIndex: undefined,
      columnIndex: undefined,
      rowCount: undefined,
      columnCount: undefined,
      values: undefined,
      formulas: undefined,
    }) as MockObject;
    mock.isNullObject = true;
    return mock;
  }

  private rangeMock(state: SheetState, rect: CellRect, batch: Batch): MockObject {
    const snapshot = (property: RangeProperty) => this.readGrid(state, rect, property);
    const seen: Partial<Record<RangeProperty, unknown>> = {};
    const mock = new OfficeMockObject({
      address: excelAddress(state.name, rectAddress(rect)),
      rowIndex: rect.row,
      columnIndex: rect.column,
      rowCount: rect.rowCount,
      columnCount: rect.columnCount,
      values: undefined,
      formulas: undefined,
      numberFormat: undefined,
      format: {
        autofitColumns: () => {
          this.operation("autofitColumns", rectAddress(rect));
          state.autofitted.push(rectAddress(rect));
        },
      },
      getSpecialCellsOrNullObject: (cellType: string) => {
        if (cellType !== "Formulas") throw new Error(`The mock finds only formula cells, not ${cellType}.`);
        this.operation("getSpecialCells", rectAddress(rect));
        const items = cellRuns(state.formulas.keys(), rect).map((area) => this.rangeMock(state, area, batch));
        const load = (names: string[]) =>
          items.forEach((item) => item.load(names.map((name) => name.replace(/^items\//, ""))));
        return { isNullObject: items.length === 0, areas: { load, items } };
      },
      getSpillingToRangeOrNullObject: () => {
        const spill = state.spills.get(key(rect.row, rect.column));
        return spill
          ? this.rangeMock(state, { row: rect.row, column: rect.column, ...spill }, batch)
          : this.nullRange();
      },
      clear: (applyTo?: string) => {
        this.operation(`clear ${applyTo ?? "All"}`, rectAddress(rect));
        for (let r = rect.row; r < rect.row + rect.rowCount; r++) {
          for (let c = rect.column; c < rect.column + rect.columnCount; c++) this.writeValue(state, r, c, "");
        }
      },
      // Cell contents are read when the batch runs, so `load` takes its snapshot then.
      load(this: MockObject, argument: unknown) {
        for (const name of propertyNames(argument)) {
          if ((READABLE_RANGE_PROPERTIES as readonly string[]).includes(name)) {
            const grid = snapshot(name as RangeProperty);
            (this as unknown as { setValue(n: string, v: unknown): void }).setValue(name, grid);
            seen[name as RangeProperty] = grid;
          }
        }
        return OfficeMockObject.prototype.load.call(this, argument as string);
      },
    }) as MockObject;
    rangeAddresses.set(mock, excelAddress(state.name, rectAddress(rect)));
    // Built on first use: most ranges never ask for their sheet.
    let sheetMock: MockObject | undefined;
    Object.defineProperty(mock, "worksheet", { get: () => (sheetMock ??= this.sheetMock(state, batch)) });
    mock.isNullObject = false;
    for (const name of READABLE_RANGE_PROPERTIES) seen[name] = mock[name];
    return this.track(batch, mock, () => {
      for (const name of READABLE_RANGE_PROPERTIES) {
        const current = mock[name];
        if (current === seen[name] || isValidError(current)) continue;
        this.operation(`range.${name} ${rectAddress(rect)}`, current);
        this.applyWrite(state, rect, name, current);
        seen[name] = current;
      }
    });
  }

  // ---- the grid -----------------------------------------------------------------------------------------

  private usedRect(state: SheetState): CellRect | undefined {
    let top = Infinity;
    let left = Infinity;
    let bottom = -1;
    let right = -1;
    state.values.forEach((row, r) =>
      row.forEach((value, c) => {
        if (value === "" || value === undefined) return;
        top = Math.min(top, r);
        bottom = Math.max(bottom, r);
        left = Math.min(left, c);
        right = Math.max(right, c);
      }),
    );
    if (bottom < 0) return undefined;
    return { row: top, column: left, rowCount: bottom - top + 1, columnCount: right - left + 1 };
  }

  private readGrid(state: SheetState, rect: CellRect, property: RangeProperty): unknown[][] {
    const grid: unknown[][] = [];
    for (let r = rect.row; r < rect.row + rect.rowCount; r++) {
      const row: unknown[] = [];
      for (let c = rect.column; c < rect.column + rect.columnCount; c++) {
        const value = state.values[r]?.[c] ?? "";
        if (property === "values") row.push(value);
        else if (property === "formulas") row.push(state.formulas.get(key(r, c)) ?? value);
        else row.push(state.numberFormats[r]?.[c] ?? "General");
      }
      grid.push(row);
    }
    return grid;
  }

  private applyWrite(state: SheetState, rect: CellRect, property: RangeProperty, input: unknown): void {
    const single = isSingleCell(input);
    if (!single && (!Array.isArray(input) || input.length !== rect.rowCount)) {
      throw new Error(`InvalidArgument: ${property} for ${rectAddress(rect)} has the wrong number of rows`);
    }
    for (let r = 0; r < rect.rowCount; r++) {
      const rowValues: unknown = single ? undefined : (input as unknown[])[r];
      if (!single && (!Array.isArray(rowValues) || rowValues.length !== rect.columnCount)) {
        throw new Error(
          `InvalidArgument: ${property} for ${rectAddress(rect)} has the wrong number of columns`,
        );
      }
      const row = rect.row + r;
      if (property === "values") state.rowValueWrites[row] = (state.rowValueWrites[row] ?? 0) + 1;
      const valueAt = (c: number): unknown => (single ? input[0][0] : (rowValues as unknown[])[c]);
      if (
        property === "values" &&
        !single &&
        state.formulas.size === 0 &&
        !(rowValues as unknown[]).includes(null)
      ) {
        // The common case of big writes: plain values on a sheet without formulas.
        const existing = state.values[row];
        if (!existing && rect.column === 0) state.values[row] = (rowValues as MockCellValue[]).slice();
        else {
          const target = existing ?? (state.values[row] = []);
          for (let c = 0; c < rect.columnCount; c++) target[rect.column + c] = valueAt(c) as MockCellValue;
        }
        continue;
      }
      for (let c = 0; c < rect.columnCount; c++) {
        const value = valueAt(c);
        const column = rect.column + c;
        if (property === "numberFormat") (state.numberFormats[row] ??= [])[column] = String(value);
        else if (property === "formulas" && typeof value === "string" && value.startsWith("=")) {
          this.writeFormula(state, row, column, value);
        } else if (value !== null) this.writeValue(state, row, column, value as MockCellValue);
      }
    }
  }

  private writeValue(state: SheetState, row: number, column: number, value: MockCellValue): void {
    if (state.formulas.size > 0) {
      state.formulas.delete(key(row, column));
      state.spills.delete(key(row, column));
    }
    (state.values[row] ??= [])[column] = value;
  }

  private writeFormula(state: SheetState, row: number, column: number, formula: string): void {
    const result = this.evaluate?.(formula) ?? [["#BUSY!"]];
    result.forEach((values, r) => values.forEach((v, c) => this.writeValue(state, row + r, column + c, v)));
    state.formulas.set(key(row, column), formula);
    const rowCount = result.length;
    const columnCount = result[0]?.length ?? 1;
    if (rowCount > 1 || columnCount > 1) state.spills.set(key(row, column), { rowCount, columnCount });
  }

  // ---- sync -------------------------------------------------------------------------------------------

  private async sync({ tracked, afterSync }: Batch): Promise<void> {
    for (const { onSync } of tracked) onSync();
    this.requests.push(this.pending);
    this.pending = { bytes: 0, operations: [] };
    for (const { mock } of tracked) await mock.sync();
    // office-addin-mock settles loaded properties in callbacks it does not await.
    await new Promise((resolve) => setImmediate(resolve));
    for (const hook of afterSync) hook();
  }
}
