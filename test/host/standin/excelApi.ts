/**
 * The part of Excel's JavaScript API the add-in calls, over the host's in-memory workbook, with Excel's batch
 * semantics: calls and property writes are queued and run at `context.sync()`, in order; properties are
 * readable only after `load` and a sync (reading one before throws, as Excel does); a missing item fails
 * the sync that needed it. Each class has exactly the public members the add-in uses
 * (test/host/standinMembers.test.ts compares them with the add-in's source); all else is `#private`.
 */
import type { CellRect } from "../../../src/excel/a1";
import { parseCellAddress, rectAddress } from "../../../src/excel/a1";
import { EXCEL_REQUEST_LIMIT_BYTES, jsonByteLength } from "../../../src/tables/payloadBytes";
import { limitsSyncPayload, supportsSet } from "../profiles";
import { basicValueOf, cellFromJson, cellToJson } from "../workbook/cellValues";
import { excelAddress, readExcelAddress } from "../workbook/excelAddress";
import type { ChartAxisRecord, ChartRecord, ChartSeriesRecord, CellReference } from "../workbook/charts";
import { CHART_LEGEND_POSITIONS, CHART_LINE_STYLES, DRAWN_CHART_TYPES } from "../workbook/charts";
import type { Cell, CellComment, Sheet, Visibility, Workbook } from "../workbook/workbook";
import { WorkbookError, cellKey } from "../workbook/workbook";
import type { HostBridge } from "./hostBridge";
import { cellRuns } from "../../support/cellRuns";

type Operation = () => void;

/**
 * What one queued call adds to a request besides the values it writes: its action and the path of the object
 * it acts on. Excel's wire format is not documented; office.js sends a few hundred bytes of JSON per action.
 */
const ACTION_BYTES = 200;

/** Excel on the web refuses a request or a response over 5 MB, with these codes and messages (docs/hosts.md). */
function payloadTooLarge(side: "Request" | "Response"): WorkbookError {
  return new WorkbookError(
    `${side}PayloadSizeLimitExceeded`,
    `The ${side.toLowerCase()} payload size has exceeded the limit. See the Resource limits and performance optimization for Office Add-ins article for more information.`,
  );
}

class PropertyNotLoadedError extends Error {
  readonly code = "PropertyNotLoaded";
  constructor(property: string) {
    super(`The property '${property}' is not available. Load it and call context.sync() before reading it.`);
    this.name = "RichApi.Error";
  }
}

/** One batch: what the add-in queued since the last sync. */
class Batch {
  readonly #operations: Operation[] = [];
  /** The size of the request being queued, and of the response the running batch has filled so far. */
  #requestBytes = 0;
  #responseBytes = 0;
  #running = false;
  constructor(readonly host: HostBridge) {}

  get workbook(): Workbook {
    return this.host.workbook;
  }

  /** Queues a call that carries `bytes` of values to write (beyond the call itself). */
  queue(operation: Operation, bytes = 0): void {
    this.#operations.push(operation);
    // What a running operation queues (a collection's items) is Excel's own work, not part of the request.
    if (!this.#running) this.#requestBytes += ACTION_BYTES + bytes;
  }

  /** Counts what a running operation reads back into the response. */
  respond(value: unknown): void {
    this.#responseBytes += jsonByteLength(value);
  }

  async run(): Promise<void> {
    // Excel answers a batch after a round trip: never within the caller's own turn.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const limited = limitsSyncPayload(this.host.profile);
    const requestBytes = this.#requestBytes;
    this.#requestBytes = 0;
    this.#responseBytes = 0;
    // Operations may queue more (a collection's items load their properties): those run in this batch too.
    // A failing operation fails the sync and drops the rest of the batch, as in Excel.
    this.#running = true;
    try {
      if (limited && requestBytes > EXCEL_REQUEST_LIMIT_BYTES) throw payloadTooLarge("Request");
      for (let operation = this.#operations.shift(); operation; operation = this.#operations.shift())
        operation();
      if (limited && this.#responseBytes > EXCEL_REQUEST_LIMIT_BYTES) throw payloadTooLarge("Response");
    } finally {
      this.#operations.length = 0;
      this.#running = false;
    }
  }
}

/** Loaded property values of one proxy, filled when a sync runs its `load`. */
class LoadedProperties {
  readonly #values = new Map<string, unknown>();

  set(name: string, value: unknown): void {
    this.#values.set(name, value);
  }

  get<T>(name: string): T {
    if (!this.#values.has(name)) throw new PropertyNotLoadedError(name);
    return this.#values.get(name) as T;
  }
}

function propertyNames(names: string | string[] | undefined, all: readonly string[]): string[] {
  if (names === undefined) return [...all];
  const list = (Array.isArray(names) ? names : names.split(",")).map((name) => name.trim()).filter(Boolean);
  for (const name of list) {
    if (!all.includes(name)) {
      throw new WorkbookError(
        "InvalidArgument",
        `The stand-in cannot load '${name}' (it loads ${all.join(", ")}).`,
      );
    }
  }
  return list;
}

/** Copies a grid into this frame's realm, so the add-in gets ordinary arrays of its own window. */
function ownGrid<T>(grid: readonly (readonly T[])[]): T[][] {
  return Array.from(grid, (row) => Array.from(row));
}

/** A written grid must match the range, except that one value fills the whole range (Excel's single input copy). */
function gridReader(property: string, rect: CellRect, input: unknown): (r: number, c: number) => unknown {
  if (Array.isArray(input) && input.length === 1 && Array.isArray(input[0]) && input[0].length === 1) {
    const only: unknown = input[0][0];
    return () => only;
  }
  const rows = Array.isArray(input) ? input : [];
  const fits =
    rows.length === rect.rowCount &&
    rows.every((row) => Array.isArray(row) && row.length === rect.columnCount);
  if (!fits) {
    throw new WorkbookError(
      "InvalidArgument",
      `The ${property} written to ${rectAddress(rect)} do not match its ${rect.rowCount} x ${rect.columnCount} size.`,
    );
  }
  return (r, c) => (rows[r] as unknown[])[c];
}

function cellInput(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  throw new WorkbookError("InvalidArgument", `A cell cannot hold ${Object.prototype.toString.call(value)}.`);
}

/**
 * The model sheet behind a worksheet proxy, inside a running batch. Kept outside the class so the class has
 * only Excel's members.
 */
const sheetResolvers = new WeakMap<object, () => Sheet>();

function resolveSheet(worksheet: StandInWorksheet): Sheet {
  const resolve = sheetResolvers.get(worksheet);
  if (!resolve) throw new WorkbookError("InvalidOperation", "Not a worksheet of this stand-in.");
  return resolve();
}

/** Where a range proxy is, inside a running batch (a comment added on a Range goes there). */
const rangeLocators = new WeakMap<object, () => { sheetName: string; rect: CellRect }>();

const RANGE_PROPERTIES = [
  "address",
  "values",
  "valuesAsJson",
  "formulas",
  "numberFormat",
  "rowIndex",
  "columnIndex",
  "rowCount",
  "columnCount",
] as const;

/** What a range's grid properties read from each cell (an empty cell reads "" and General). */
const CELL_READERS = {
  values: (cell: Cell | undefined) => basicValueOf(cell),
  formulas: (cell: Cell | undefined) => cell?.formula ?? cell?.value ?? "",
  numberFormat: (cell: Cell | undefined) => cell?.numberFormat ?? "General",
};

class StandInRange {
  static readonly officeName = "Excel.Range";
  readonly #batch: Batch;
  readonly #sheet: StandInWorksheet;
  /** Where the range is, found when the batch runs (a spill or a used range is known only then). */
  readonly #locate: () => CellRect | undefined;
  readonly #loaded = new LoadedProperties();
  readonly #format: StandInRangeFormat;

  constructor(batch: Batch, sheet: StandInWorksheet, locate: () => CellRect | undefined) {
    this.#batch = batch;
    this.#sheet = sheet;
    this.#locate = locate;
    this.#format = new StandInRangeFormat(batch);
    rangeLocators.set(this, () => ({ sheetName: resolveSheet(sheet).name, rect: this.#rect() }));
  }

  #rect(): CellRect {
    const rect = this.#locate();
    if (!rect) throw new WorkbookError("InvalidOperation", "The range is a null object.");
    return rect;
  }

  /** valuesAsJson is ExcelApi 1.16: a host without it fails the sync, as Excel does for an API it lacks. */
  #requireValuesAsJson(): void {
    if (!supportsSet(this.#batch.host.profile, "ExcelApi", "1.16")) {
      throw new WorkbookError(
        "InvalidOperation",
        `${this.#batch.host.profile.label} has no Range.valuesAsJson (ExcelApi 1.16).`,
      );
    }
  }

  #write(property: string, input: unknown): void {
    this.#batch.queue(() => {
      const rect = this.#rect();
      const read = gridReader(property, rect, input);
      const sheet = resolveSheet(this.#sheet);
      if (property === "valuesAsJson") {
        this.#requireValuesAsJson();
        this.#batch.workbook.writeCells(sheet.name, rect, (r, c) => {
          const json: unknown = read(r, c);
          const cell =
            typeof json === "object" && json !== null && typeof (json as { type?: unknown }).type === "string"
              ? cellFromJson(json as { type: string })
              : undefined;
          if (!cell) throw new WorkbookError("InvalidArgument", `Not a cell value: ${JSON.stringify(json)}.`);
          return cell;
        });
      } else if (property === "numberFormat") {
        this.#batch.workbook.setNumberFormats(sheet.name, rect, (r, c) => {
          const format = cellInput(read(r, c));
          return format === null ? null : String(format);
        });
      } else {
        this.#batch.workbook.write(sheet.name, rect, (r, c) => cellInput(read(r, c)));
      }
    }, jsonByteLength(input));
  }

  load(names?: string | string[]): StandInRange {
    const wanted = propertyNames(names, RANGE_PROPERTIES);
    this.#batch.queue(() => {
      const rect = this.#locate();
      if (!rect) return;
      const sheet = resolveSheet(this.#sheet);
      const scalars = {
        address: excelAddress(sheet.name, rectAddress(rect)),
        rowIndex: rect.row,
        columnIndex: rect.column,
        rowCount: rect.rowCount,
        columnCount: rect.columnCount,
      };
      for (const name of wanted) {
        if (name in scalars) {
          this.#loaded.set(name, scalars[name as keyof typeof scalars]);
          continue;
        }
        if (name === "valuesAsJson") this.#requireValuesAsJson();
        const doubleCarriesFormat = supportsSet(this.#batch.host.profile, "ExcelApi", "1.19");
        const read =
          name === "valuesAsJson"
            ? (cell: Cell | undefined) => cellToJson(cell, doubleCarriesFormat)
            : CELL_READERS[name as keyof typeof CELL_READERS];
        const grid = Array.from({ length: rect.rowCount }, (_, r) =>
          Array.from({ length: rect.columnCount }, (_, c) => read(sheet.cell(rect.row + r, rect.column + c))),
        );
        this.#batch.workbook.addInCellReads += rect.rowCount * rect.columnCount;
        this.#batch.respond(grid);
        this.#loaded.set(name, grid);
      }
    });
    return this;
  }

  get isNullObject(): boolean {
    return this.#loaded.get("isNullObject");
  }

  get values(): unknown[][] {
    return ownGrid(this.#loaded.get<unknown[][]>("values"));
  }
  set values(input: unknown[][]) {
    this.#write("values", input);
  }

  get valuesAsJson(): unknown[][] {
    return ownGrid(this.#loaded.get<unknown[][]>("valuesAsJson"));
  }
  set valuesAsJson(input: unknown[][]) {
    this.#write("valuesAsJson", input);
  }

  get formulas(): unknown[][] {
    return ownGrid(this.#loaded.get<unknown[][]>("formulas"));
  }
  set formulas(input: unknown[][]) {
    this.#write("formulas", input);
  }

  get numberFormat(): unknown[][] {
    return ownGrid(this.#loaded.get<unknown[][]>("numberFormat"));
  }
  set numberFormat(input: unknown[][]) {
    this.#write("numberFormat", input);
  }

  get address(): string {
    return this.#loaded.get("address");
  }

  get rowIndex(): number {
    return this.#loaded.get("rowIndex");
  }
  get columnIndex(): number {
    return this.#loaded.get("columnIndex");
  }
  get rowCount(): number {
    return this.#loaded.get("rowCount");
  }
  get columnCount(): number {
    return this.#loaded.get("columnCount");
  }

  get worksheet(): StandInWorksheet {
    return this.#sheet;
  }

  get format(): StandInRangeFormat {
    return this.#format;
  }

  clear(applyTo?: "All" | "Contents" | "Formats"): void {
    this.#batch.queue(() =>
      this.#batch.workbook.clear(resolveSheet(this.#sheet).name, this.#rect(), applyTo),
    );
  }

  /**
   * The spill of this anchor cell; a null object for a cell that anchors no spill and for a range of several
   * cells (which is no anchor cell), as Excel's OrNullObject variant gives.
   */
  getSpillingToRangeOrNullObject(): StandInRange {
    return StandInRange.nullable(this.#batch, this.#sheet, () => {
      const rect = this.#rect();
      if (rect.rowCount !== 1 || rect.columnCount !== 1) return undefined;
      return resolveSheet(this.#sheet).spills.get(cellKey(rect.row, rect.column));
    });
  }

  /**
   * The anchor of the spill this one cell belongs to (the anchor's own cell included); a null object for a
   * cell outside any spill, and for a range of several cells, as Excel's OrNullObject variant gives.
   */
  getSpillParentOrNullObject(): StandInRange {
    return StandInRange.nullable(this.#batch, this.#sheet, () => {
      const rect = this.#rect();
      if (rect.rowCount !== 1 || rect.columnCount !== 1) return undefined;
      const sheet = resolveSheet(this.#sheet);
      const key = cellKey(rect.row, rect.column);
      const anchor =
        sheet.cell(rect.row, rect.column)?.spilledFrom ?? (sheet.spills.has(key) ? key : undefined);
      if (anchor === undefined) return undefined;
      const [row = 0, column = 0] = anchor.split(",").map(Number);
      return { row, column, rowCount: 1, columnCount: 1 };
    });
  }

  /**
   * The cells of this range that hold a formula (Excel.SpecialCellType.formulas, ExcelApi 1.9), as areas: each
   * run of formula cells along a row is one area. A null object when none does, where `getSpecialCells` would
   * fail the sync with ItemNotFound (excel-add-ins-ranges-special-cells). Spilled cells show values, not
   * formulas, so only anchors count.
   */
  getSpecialCellsOrNullObject(cellType: "Formulas"): StandInRangeAreas {
    if (cellType !== "Formulas") {
      throw new WorkbookError("InvalidArgument", `The stand-in finds only formula cells, not ${cellType}.`);
    }
    let areas: CellRect[] = [];
    this.#batch.queue(() => {
      const rect = this.#rect();
      const sheet = resolveSheet(this.#sheet);
      areas = cellRuns(
        [...sheet.cells].flatMap(([key, cell]) => (cell.formula === undefined ? [] : [key])),
        rect,
      );
    });
    return new StandInRangeAreas(this.#batch, this.#sheet, () => areas);
  }

  /** A range that may be a null object: `isNullObject` is known after the next sync. */
  static nullable(batch: Batch, sheet: StandInWorksheet, locate: () => CellRect | undefined): StandInRange {
    const range = new StandInRange(batch, sheet, locate);
    batch.queue(() => range.#loaded.set("isNullObject", locate() === undefined));
    return range;
  }

  static known(batch: Batch, sheet: StandInWorksheet, rect: CellRect): StandInRange {
    const range = new StandInRange(batch, sheet, () => rect);
    range.#loaded.set("isNullObject", false);
    return range;
  }
}

/** The areas of a RangeAreas: `load("items/rowIndex,...")` gives each as a range. */
class StandInRangeCollection {
  static readonly officeName = "Excel.RangeCollection";
  readonly #batch: Batch;
  readonly #sheet: StandInWorksheet;
  readonly #rects: () => CellRect[];
  #items: StandInRange[] | undefined;

  constructor(batch: Batch, sheet: StandInWorksheet, rects: () => CellRect[]) {
    this.#batch = batch;
    this.#sheet = sheet;
    this.#rects = rects;
  }

  load(names: string | string[]): StandInRangeCollection {
    const wanted = (Array.isArray(names) ? names : names.split(",")).map((name) => {
      const trimmed = name.trim();
      if (!trimmed.startsWith("items/"))
        throw new WorkbookError(
          "InvalidArgument",
          `The stand-in loads only items of areas, not '${trimmed}'.`,
        );
      return trimmed.slice("items/".length);
    });
    this.#batch.queue(() => {
      const rects = this.#rects();
      this.#batch.respond(rects);
      this.#items = rects.map((rect) => {
        const item = StandInRange.known(this.#batch, this.#sheet, rect);
        item.load(wanted);
        return item;
      });
    });
    return this;
  }

  get items(): StandInRange[] {
    if (!this.#items) throw new PropertyNotLoadedError("items");
    return Array.from(this.#items);
  }
}

/** Several ranges of one sheet (ExcelApi 1.9), as `getSpecialCellsOrNullObject` gives them. */
class StandInRangeAreas {
  static readonly officeName = "Excel.RangeAreas";
  readonly #loaded = new LoadedProperties();
  readonly #areas: StandInRangeCollection;

  constructor(batch: Batch, sheet: StandInWorksheet, rects: () => CellRect[]) {
    this.#areas = new StandInRangeCollection(batch, sheet, rects);
    batch.queue(() => this.#loaded.set("isNullObject", rects().length === 0));
  }

  get isNullObject(): boolean {
    return this.#loaded.get("isNullObject");
  }

  get areas(): StandInRangeCollection {
    return this.#areas;
  }
}

class StandInRangeFormat {
  static readonly officeName = "Excel.RangeFormat";
  readonly #batch: Batch;

  constructor(batch: Batch) {
    this.#batch = batch;
  }

  /** The host grid sizes its columns to their content, so there is nothing to do but keep the order of calls. */
  autofitColumns(): void {
    this.#batch.queue(() => undefined);
  }
}

class StandInWorksheetFreezePanes {
  static readonly officeName = "Excel.WorksheetFreezePanes";
  readonly #batch: Batch;
  readonly #sheet: StandInWorksheet;

  constructor(batch: Batch, sheet: StandInWorksheet) {
    this.#batch = batch;
    this.#sheet = sheet;
  }

  freezeRows(count?: number): void {
    this.#batch.queue(() => this.#batch.workbook.freezeRows(resolveSheet(this.#sheet).name, count ?? 1));
  }
}

/** What `tables.add` returns; the add-in uses none of its members. */
class StandInTable {
  static readonly officeName = "Excel.Table";
}

class StandInTableCollection {
  static readonly officeName = "Excel.TableCollection";
  readonly #batch: Batch;
  readonly #sheet: StandInWorksheet;

  constructor(batch: Batch, sheet: StandInWorksheet) {
    this.#batch = batch;
    this.#sheet = sheet;
  }

  add(address: string, hasHeaders: boolean): StandInTable {
    this.#batch.queue(() =>
      this.#batch.workbook.addTable(resolveSheet(this.#sheet).name, address, hasHeaders),
    );
    return new StandInTable();
  }
}

/** Where a range is, for a chart's series or position: a Range of this stand-in, found when the batch runs. */
function referenceOf(range: StandInRange): CellReference {
  const locate = rangeLocators.get(range);
  if (!locate) throw new WorkbookError("InvalidArgument", "Not a range of this stand-in.");
  const { sheetName, rect } = locate();
  return { sheet: sheetName, rect };
}

/** A chart of a sheet, found by its id when the batch runs; a chart deleted since fails the sync. */
interface ChartHandle {
  readonly batch: Batch;
  /** The chart's sheet and record, inside a running batch. */
  readonly resolve: () => { sheet: Sheet; chart: ChartRecord };
}

function changeChart(handle: ChartHandle, change: (chart: ChartRecord) => void): void {
  handle.batch.queue(() => {
    const { sheet, chart } = handle.resolve();
    handle.batch.workbook.changeChart(sheet.name, chart.id, change);
  });
}

class StandInChartTitle {
  static readonly officeName = "Excel.ChartTitle";
  readonly #handle: ChartHandle;
  constructor(handle: ChartHandle) {
    this.#handle = handle;
  }

  set text(text: string) {
    changeChart(this.#handle, (chart) => {
      chart.title = String(text);
    });
  }
}

class StandInChartAxisTitle {
  static readonly officeName = "Excel.ChartAxisTitle";
  readonly #handle: ChartHandle;
  readonly #axis: (chart: ChartRecord) => ChartAxisRecord;
  constructor(handle: ChartHandle, axis: (chart: ChartRecord) => ChartAxisRecord) {
    this.#handle = handle;
    this.#axis = axis;
  }

  set text(text: string) {
    changeChart(this.#handle, (chart) => {
      this.#axis(chart).title = String(text);
    });
  }
}

class StandInChartAxis {
  static readonly officeName = "Excel.ChartAxis";
  readonly #handle: ChartHandle;
  readonly #axis: (chart: ChartRecord) => ChartAxisRecord;
  constructor(handle: ChartHandle, axis: (chart: ChartRecord) => ChartAxisRecord) {
    this.#handle = handle;
    this.#axis = axis;
  }

  get title(): StandInChartAxisTitle {
    return new StandInChartAxisTitle(this.#handle, this.#axis);
  }

  /** ExcelApi 1.8. */
  set numberFormat(format: string) {
    changeChart(this.#handle, (chart) => {
      this.#axis(chart).numberFormat = String(format);
    });
  }

  /** ExcelApi 1.7. */
  set reversePlotOrder(reversed: boolean) {
    changeChart(this.#handle, (chart) => {
      this.#axis(chart).reversePlotOrder = reversed === true;
    });
  }
}

class StandInChartAxes {
  static readonly officeName = "Excel.ChartAxes";
  readonly #handle: ChartHandle;
  constructor(handle: ChartHandle) {
    this.#handle = handle;
  }

  get valueAxis(): StandInChartAxis {
    return new StandInChartAxis(this.#handle, (chart) => chart.valueAxis);
  }

  get categoryAxis(): StandInChartAxis {
    return new StandInChartAxis(this.#handle, (chart) => chart.categoryAxis);
  }
}

class StandInChartLegend {
  static readonly officeName = "Excel.ChartLegend";
  readonly #handle: ChartHandle;
  constructor(handle: ChartHandle) {
    this.#handle = handle;
  }

  set position(position: string) {
    if (!CHART_LEGEND_POSITIONS.has(position))
      throw new WorkbookError("InvalidArgument", `"${position}" is not an Excel.ChartLegendPosition.`);
    changeChart(this.#handle, (chart) => {
      chart.legend.position = position;
    });
  }
}

/** One series of a chart, by its place in the chart's series when the proxy was made. */
class StandInChartSeries {
  static readonly officeName = "Excel.ChartSeries";
  readonly #handle: ChartHandle;
  readonly #series: () => ChartSeriesRecord;

  constructor(handle: ChartHandle, series: () => ChartSeriesRecord) {
    this.#handle = handle;
    this.#series = series;
  }

  #change(change: (series: ChartSeriesRecord) => void): void {
    changeChart(this.#handle, () => change(this.#series()));
  }

  set name(name: string) {
    this.#change((series) => {
      series.name = String(name);
    });
  }

  /** ExcelApi 1.7: a series' values are one row or one column. */
  setValues(sourceData: StandInRange): void {
    this.#change((series) => {
      series.values = oneLine(referenceOf(sourceData));
    });
  }

  /** ExcelApi 1.7. */
  setXAxisValues(sourceData: StandInRange): void {
    this.#change((series) => {
      series.xValues = oneLine(referenceOf(sourceData));
    });
  }

  get format(): StandInChartSeriesFormat {
    return new StandInChartSeriesFormat(this.#handle, this.#series);
  }

  /** ExcelApi 1.7. */
  delete(): void {
    changeChart(this.#handle, (chart) => {
      const index = chart.series.indexOf(this.#series());
      if (index < 0) throw new WorkbookError("ItemNotFound", "The series does not exist.");
      chart.series.splice(index, 1);
    });
  }
}

function oneLine(reference: CellReference): CellReference {
  if (reference.rect.rowCount !== 1 && reference.rect.columnCount !== 1)
    throw new WorkbookError("InvalidArgument", "A series' data is one row or one column of cells.");
  return reference;
}

class StandInChartSeriesFormat {
  static readonly officeName = "Excel.ChartSeriesFormat";
  readonly #handle: ChartHandle;
  readonly #series: () => ChartSeriesRecord;
  constructor(handle: ChartHandle, series: () => ChartSeriesRecord) {
    this.#handle = handle;
    this.#series = series;
  }

  get line(): StandInChartLineFormat {
    return new StandInChartLineFormat(this.#handle, this.#series);
  }
}

class StandInChartLineFormat {
  static readonly officeName = "Excel.ChartLineFormat";
  readonly #handle: ChartHandle;
  readonly #series: () => ChartSeriesRecord;
  constructor(handle: ChartHandle, series: () => ChartSeriesRecord) {
    this.#handle = handle;
    this.#series = series;
  }

  /** ExcelApi 1.7. */
  set lineStyle(style: string) {
    if (!CHART_LINE_STYLES.has(style))
      throw new WorkbookError("InvalidArgument", `"${style}" is not an Excel.ChartLineStyle.`);
    changeChart(this.#handle, () => {
      this.#series().lineStyle = style;
    });
  }
}

class StandInChartSeriesCollection {
  static readonly officeName = "Excel.ChartSeriesCollection";
  readonly #handle: ChartHandle;
  #items: StandInChartSeries[] | undefined;

  constructor(handle: ChartHandle) {
    this.#handle = handle;
  }

  load(names?: string | string[]): StandInChartSeriesCollection {
    const wanted = (Array.isArray(names) ? names : (names ?? "items").split(",")).map((name) => name.trim());
    if (wanted.some((name) => name !== "items"))
      throw new WorkbookError(
        "InvalidArgument",
        `The stand-in loads only a chart's series, not '${wanted.join(",")}'.`,
      );
    this.#handle.batch.queue(() => {
      const { chart } = this.#handle.resolve();
      this.#items = chart.series.map((record) => new StandInChartSeries(this.#handle, () => record));
    });
    return this;
  }

  get items(): StandInChartSeries[] {
    if (!this.#items) throw new PropertyNotLoadedError("items");
    return Array.from(this.#items);
  }

  /** ExcelApi 1.7: a series with no data yet (not drawn until its values are set). */
  add(name?: string): StandInChartSeries {
    let added: ChartSeriesRecord | undefined;
    changeChart(this.#handle, (chart) => {
      added = { name: name ?? `Series${chart.series.length + 1}`, lineStyle: "Continuous" };
      chart.series.push(added);
    });
    return new StandInChartSeries(this.#handle, () => {
      if (!added) throw new WorkbookError("ItemNotFound", "The series does not exist.");
      return added;
    });
  }
}

class StandInChart {
  static readonly officeName = "Excel.Chart";
  readonly #handle: ChartHandle;
  readonly #loaded = new LoadedProperties();

  constructor(handle: ChartHandle) {
    this.#handle = handle;
  }

  get isNullObject(): boolean {
    return this.#loaded.get("isNullObject");
  }

  set name(name: string) {
    changeChart(this.#handle, (chart) => {
      chart.name = String(name);
    });
  }

  /** ExcelApi 1.7: the chart's type changes, its series kept. */
  set chartType(type: string) {
    changeChart(this.#handle, (chart) => {
      if (!DRAWN_CHART_TYPES.has(type))
        throw new WorkbookError(
          "InvalidArgument",
          `The stand-in draws ${[...DRAWN_CHART_TYPES].join(", ")} charts, not ${type}.`,
        );
      chart.type = type;
    });
  }

  get title(): StandInChartTitle {
    return new StandInChartTitle(this.#handle);
  }

  get axes(): StandInChartAxes {
    return new StandInChartAxes(this.#handle);
  }

  get legend(): StandInChartLegend {
    return new StandInChartLegend(this.#handle);
  }

  get series(): StandInChartSeriesCollection {
    return new StandInChartSeriesCollection(this.#handle);
  }

  /** Places the chart over the cells from `startCell` to `endCell` (ExcelApi 1.1). */
  setPosition(startCell: StandInRange, endCell?: StandInRange): void {
    changeChart(this.#handle, (chart) => {
      const start = referenceOf(startCell).rect;
      const end = endCell ? referenceOf(endCell).rect : start;
      const row = Math.min(start.row, end.row);
      const column = Math.min(start.column, end.column);
      chart.position = {
        row,
        column,
        rowCount: Math.max(start.row, end.row + end.rowCount - 1) - row + 1,
        columnCount: Math.max(start.column, end.column + end.columnCount - 1) - column + 1,
      };
    });
  }

  /** A chart proxy whose `isNullObject` is known after the next sync. */
  static found(
    batch: Batch,
    sheet: StandInWorksheet,
    find: (sheet: Sheet) => ChartRecord | undefined,
    nullable: boolean,
  ): StandInChart {
    let found: { sheet: Sheet; chart: ChartRecord } | undefined;
    const proxy = new StandInChart({
      batch,
      resolve: () => {
        if (!found) throw new WorkbookError("ItemNotFound", "The chart does not exist.");
        if (!found.sheet.charts.includes(found.chart))
          throw new WorkbookError("ItemNotFound", "The chart was deleted.");
        return found;
      },
    });
    batch.queue(() => {
      const model = resolveSheet(sheet);
      const chart = find(model);
      found = chart ? { sheet: model, chart } : undefined;
      proxy.#loaded.set("isNullObject", chart === undefined);
      if (!chart && !nullable) throw new WorkbookError("ItemNotFound", "The chart does not exist.");
    });
    return proxy;
  }
}

/** `worksheet.charts` (ExcelApi 1.1). */
class StandInChartCollection {
  static readonly officeName = "Excel.ChartCollection";
  readonly #batch: Batch;
  readonly #sheet: StandInWorksheet;

  constructor(batch: Batch, sheet: StandInWorksheet) {
    this.#batch = batch;
    this.#sheet = sheet;
  }

  add(type: string, sourceData: StandInRange, seriesBy: string = "Auto"): StandInChart {
    let added: ChartRecord | undefined;
    this.#batch.queue(() => {
      if (!DRAWN_CHART_TYPES.has(type))
        throw new WorkbookError(
          "InvalidArgument",
          `The stand-in draws ${[...DRAWN_CHART_TYPES].join(", ")} charts, not ${type}.`,
        );
      if (!["Auto", "Columns", "Rows"].includes(seriesBy))
        throw new WorkbookError("InvalidArgument", `"${seriesBy}" is not an Excel.ChartSeriesBy.`);
      const source = referenceOf(sourceData);
      const sheet = resolveSheet(this.#sheet);
      if (source.sheet.toUpperCase() !== sheet.name.toUpperCase())
        throw new WorkbookError("InvalidArgument", "The stand-in adds a chart over cells of its own sheet.");
      added = this.#batch.workbook.addChart(sheet.name, type, source.rect, seriesBy);
    });
    return StandInChart.found(this.#batch, this.#sheet, () => added, false);
  }

  /** ExcelApi 1.4: the first chart of that name (names may repeat), or a null object. */
  getItemOrNullObject(name: string): StandInChart {
    return StandInChart.found(
      this.#batch,
      this.#sheet,
      (sheet) => sheet.charts.find((chart) => chart.name.toUpperCase() === name.toUpperCase()),
      true,
    );
  }
}

const WORKSHEET_PROPERTIES = ["name", "visibility"] as const;

class StandInWorksheet {
  static readonly officeName = "Excel.Worksheet";
  readonly #batch: Batch;
  readonly #find: () => Sheet | undefined;
  /** The sheet once found: it stays the same sheet across syncs. */
  #found: Sheet | undefined;
  readonly #loaded = new LoadedProperties();

  constructor(batch: Batch, find: () => Sheet | undefined, nullable: boolean) {
    this.#batch = batch;
    this.#find = find;
    sheetResolvers.set(this, () => {
      const sheet = this.#found;
      if (!sheet) throw new WorkbookError("InvalidOperation", "The worksheet is a null object.");
      return sheet;
    });
    batch.queue(() => {
      const sheet = this.#find();
      this.#found = sheet;
      this.#loaded.set("isNullObject", sheet === undefined);
      if (!sheet && !nullable)
        throw new WorkbookError("ItemNotFound", "The requested worksheet does not exist.");
    });
  }

  load(names?: string | string[]): StandInWorksheet {
    const wanted = propertyNames(names, WORKSHEET_PROPERTIES);
    this.#batch.queue(() => {
      const sheet = this.#found;
      if (!sheet) return;
      for (const name of wanted) this.#loaded.set(name, sheet[name as (typeof WORKSHEET_PROPERTIES)[number]]);
    });
    return this;
  }

  get isNullObject(): boolean {
    return this.#loaded.get("isNullObject");
  }

  get name(): string {
    return this.#loaded.get("name");
  }

  get visibility(): Visibility {
    return this.#loaded.get("visibility");
  }
  set visibility(visibility: Visibility) {
    this.#batch.queue(() => this.#batch.workbook.setVisibility(resolveSheet(this).name, visibility));
  }

  get freezePanes(): StandInWorksheetFreezePanes {
    return new StandInWorksheetFreezePanes(this.#batch, this);
  }

  get tables(): StandInTableCollection {
    return new StandInTableCollection(this.#batch, this);
  }

  get charts(): StandInChartCollection {
    return new StandInChartCollection(this.#batch, this);
  }

  getRangeByIndexes(row: number, column: number, rowCount: number, columnCount: number): StandInRange {
    return StandInRange.known(this.#batch, this, { row, column, rowCount, columnCount });
  }

  getUsedRangeOrNullObject(valuesOnly?: boolean): StandInRange {
    return StandInRange.nullable(this.#batch, this, () => resolveSheet(this).usedRect(valuesOnly === true));
  }

  activate(): void {
    this.#batch.queue(() => this.#batch.workbook.activate(resolveSheet(this).name));
  }

  delete(): void {
    this.#batch.queue(() => this.#batch.workbook.deleteSheet(resolveSheet(this).name));
  }
}

class StandInWorksheetCollection {
  static readonly officeName = "Excel.WorksheetCollection";
  readonly #batch: Batch;
  #items: StandInWorksheet[] | undefined;

  constructor(batch: Batch) {
    this.#batch = batch;
  }

  #sheetNamed(name: string, nullable: boolean): StandInWorksheet {
    return new StandInWorksheet(this.#batch, () => this.#batch.workbook.findSheet(name), nullable);
  }

  /** `load("items/name")`: the items, each with the named properties loaded. */
  load(names?: string | string[]): StandInWorksheetCollection {
    const itemProperties = (Array.isArray(names) ? names : (names ?? "items").split(","))
      .map((name) => name.trim())
      .map((name) => {
        if (name === "items") return undefined;
        if (!name.startsWith("items/")) {
          throw new WorkbookError(
            "InvalidArgument",
            `The stand-in loads only items of worksheets, not '${name}'.`,
          );
        }
        return name.slice("items/".length);
      })
      .filter((name): name is string => name !== undefined);
    this.#batch.queue(() => {
      this.#items = this.#batch.workbook.sheets.map((sheet) => {
        const item = new StandInWorksheet(this.#batch, () => sheet, false);
        item.load(itemProperties);
        return item;
      });
    });
    return this;
  }

  get items(): StandInWorksheet[] {
    if (!this.#items) throw new PropertyNotLoadedError("items");
    return Array.from(this.#items);
  }

  add(name?: string): StandInWorksheet {
    let added: Sheet | undefined;
    this.#batch.queue(() => {
      added = this.#batch.workbook.addSheet(name);
    });
    return new StandInWorksheet(this.#batch, () => added, false);
  }

  getItem(name: string): StandInWorksheet {
    return this.#sheetNamed(name, false);
  }

  getItemOrNullObject(name: string): StandInWorksheet {
    return this.#sheetNamed(name, true);
  }

  getActiveWorksheet(): StandInWorksheet {
    return new StandInWorksheet(this.#batch, () => this.#batch.workbook.activeSheet, false);
  }

  /** ExcelApi 1.8. */
  get onCalculated(): StandInWorksheetCalculatedHandlers {
    return new StandInWorksheetCalculatedHandlers(this.#batch);
  }
}

/**
 * `worksheets.onCalculated` (ExcelApi 1.8): a handler added in a batch is registered when the batch syncs and
 * is then called after each calculation that changed what a sheet shows (formulas' new results), with the
 * calculated sheet's id and the address of the cells it changed.
 */
class StandInWorksheetCalculatedHandlers {
  static readonly officeName = "OfficeExtension.EventHandlers";
  readonly #batch: Batch;

  constructor(batch: Batch) {
    this.#batch = batch;
  }

  add(
    handler: (args: {
      type: "WorksheetCalculated";
      worksheetId: string;
      address: string;
    }) => Promise<unknown>,
  ): StandInEventHandlerResult {
    this.#batch.queue(() => {
      const stop = this.#batch.workbook.onChange((change) => {
        if (change.kind !== "results") return;
        const args = {
          type: "WorksheetCalculated" as const,
          // The stand-in's sheets have no ids of their own: the name stands for one (the add-in reads none).
          worksheetId: change.sheet,
          address: rectAddress(change.rect),
        };
        // Excel raises the event after the calculation, not inside it.
        setTimeout(() => void handler(args).catch(() => undefined), 0);
      });
      // Excel drops a reloaded page's handlers (outside a page, in Node, there is no page to leave).
      if (typeof window !== "undefined") window.addEventListener("pagehide", stop, { once: true });
    });
    return new StandInEventHandlerResult();
  }
}

/** A comment thread on a cell (ExcelApi 1.10). */
class StandInComment {
  static readonly officeName = "Excel.Comment";
  readonly #batch: Batch;
  readonly #comment: CellComment;

  constructor(batch: Batch, comment: CellComment) {
    this.#batch = batch;
    this.#comment = comment;
  }

  get content(): string {
    return this.#comment.content;
  }

  getLocation(): StandInRange {
    const comment = this.#comment;
    const sheet = new StandInWorksheet(
      this.#batch,
      () => this.#batch.workbook.findSheet(comment.sheet),
      false,
    );
    return StandInRange.known(this.#batch, sheet, {
      row: comment.row,
      column: comment.column,
      rowCount: 1,
      columnCount: 1,
    });
  }

  delete(): void {
    this.#batch.queue(() => this.#batch.workbook.deleteComment(this.#comment.id));
  }
}

/** The one cell a comment goes on: a Range, or its address as Excel reads one ("Sheet1!B2", "'Q1'!B2"). */
function commentCell(cell: StandInRange | string): { sheetName: string; row: number; column: number } {
  if (typeof cell !== "string") {
    const locate = rangeLocators.get(cell);
    if (!locate) throw new WorkbookError("InvalidArgument", "Not a range of this stand-in.");
    const { sheetName, rect } = locate();
    if (rect.rowCount !== 1 || rect.columnCount !== 1)
      throw new WorkbookError("InvalidArgument", "A comment goes on one cell.");
    return { sheetName, row: rect.row, column: rect.column };
  }
  const parts = readExcelAddress(cell);
  if (!parts) throw new WorkbookError("InvalidArgument", `Excel reads no sheet and cell in "${cell}".`);
  const a1 = parts.cells.replace(/\$/g, "");
  if (!/^[A-Za-z]+[0-9]+$/.test(a1))
    throw new WorkbookError("InvalidArgument", "A comment goes on one cell.");
  return { sheetName: parts.sheetName, ...parseCellAddress(a1) };
}

/** `workbook.comments` (ExcelApi 1.10): the add-in adds comments, lists them (`load("items/...")`) and deletes. */
class StandInCommentCollection {
  static readonly officeName = "Excel.CommentCollection";
  readonly #batch: Batch;
  #items: StandInComment[] | undefined;

  constructor(batch: Batch) {
    this.#batch = batch;
  }

  load(names?: string | string[]): StandInCommentCollection {
    const wanted = (Array.isArray(names) ? names : (names ?? "items").split(",")).map((name) => name.trim());
    for (const name of wanted) {
      if (name !== "items" && name !== "items/content")
        throw new WorkbookError(
          "InvalidArgument",
          `The stand-in loads only comments' content, not '${name}'.`,
        );
    }
    this.#batch.queue(() => {
      this.#items = this.#batch.workbook.comments.map((comment) => new StandInComment(this.#batch, comment));
    });
    return this;
  }

  get items(): StandInComment[] {
    if (!this.#items) throw new PropertyNotLoadedError("items");
    return Array.from(this.#items);
  }

  add(cellAddress: StandInRange | string, content: string): void {
    this.#batch.queue(() => {
      const { sheetName, row, column } = commentCell(cellAddress);
      this.#batch.workbook.addComment(sheetName, row, column, content);
    });
  }
}

/** A workbook setting: its value once loaded, or a null object when the key has none. */
class StandInSetting {
  static readonly officeName = "Excel.Setting";
  readonly #batch: Batch;
  readonly #key: string;
  readonly #loaded = new LoadedProperties();

  constructor(batch: Batch, key: string) {
    this.#batch = batch;
    this.#key = key;
    batch.queue(() => this.#loaded.set("isNullObject", !batch.workbook.settings.has(key)));
  }

  load(names?: string | string[]): StandInSetting {
    propertyNames(names, ["value"]);
    this.#batch.queue(() => {
      const settings = this.#batch.workbook.settings;
      if (settings.has(this.#key)) this.#loaded.set("value", settings.get(this.#key));
    });
    return this;
  }

  get isNullObject(): boolean {
    return this.#loaded.get("isNullObject");
  }

  get value(): unknown {
    return this.#loaded.get("value");
  }
}

/** `workbook.settings` (ExcelApi 1.4): key-value pairs of the add-in, part of the workbook and saved with it. */
class StandInSettingCollection {
  static readonly officeName = "Excel.SettingCollection";
  readonly #batch: Batch;

  constructor(batch: Batch) {
    this.#batch = batch;
  }

  add(key: string, value: unknown): StandInSetting {
    this.#batch.queue(() => this.#batch.workbook.setSetting(key, value));
    return new StandInSetting(this.#batch, key);
  }

  getItemOrNullObject(key: string): StandInSetting {
    return new StandInSetting(this.#batch, key);
  }
}

/** What `EventHandlers.add` gives back; the add-in uses none of its members. */
class StandInEventHandlerResult {
  static readonly officeName = "OfficeExtension.EventHandlerResult";
}

/**
 * The workbook's selection event: a handler added in a batch is registered when the batch syncs and then
 * called, as Excel calls it, after each change of selection (the host's grid, or a sheet activated).
 */
class StandInSelectionChangedHandlers {
  static readonly officeName = "OfficeExtension.EventHandlers";
  readonly #batch: Batch;

  constructor(batch: Batch) {
    this.#batch = batch;
  }

  add(handler: (args: { type: "WorkbookSelectionChanged" }) => Promise<unknown>): StandInEventHandlerResult {
    this.#batch.queue(() => {
      const stop = this.#batch.workbook.onChange((change) => {
        if (change.kind === "selection" || change.kind === "sheets")
          void handler({ type: "WorkbookSelectionChanged" }).catch(() => undefined);
      });
      // Excel drops a reloaded page's handlers.
      window.addEventListener("pagehide", stop, { once: true });
    });
    return new StandInEventHandlerResult();
  }
}

class StandInWorkbook {
  static readonly officeName = "Excel.Workbook";
  readonly #batch: Batch;
  readonly #worksheets: StandInWorksheetCollection;

  constructor(batch: Batch) {
    this.#batch = batch;
    this.#worksheets = new StandInWorksheetCollection(batch);
  }

  get worksheets(): StandInWorksheetCollection {
    return this.#worksheets;
  }

  get comments(): StandInCommentCollection {
    return new StandInCommentCollection(this.#batch);
  }

  get settings(): StandInSettingCollection {
    return new StandInSettingCollection(this.#batch);
  }

  get onSelectionChanged(): StandInSelectionChangedHandlers {
    return new StandInSelectionChangedHandlers(this.#batch);
  }

  getSelectedRange(): StandInRange {
    let selection: { sheet: string; rect: CellRect } | undefined;
    this.#batch.queue(() => {
      selection = this.#batch.workbook.selection;
    });
    const sheet = new StandInWorksheet(
      this.#batch,
      () => (selection ? this.#batch.workbook.findSheet(selection.sheet) : undefined),
      false,
    );
    return new StandInRange(this.#batch, sheet, () => selection?.rect);
  }
}

export class StandInRequestContext {
  static readonly officeName = "Excel.RequestContext";
  readonly #batch: Batch;
  readonly #workbook: StandInWorkbook;

  constructor(host: HostBridge) {
    this.#batch = new Batch(host);
    this.#workbook = new StandInWorkbook(this.#batch);
  }

  get workbook(): StandInWorkbook {
    return this.#workbook;
  }

  sync(): Promise<void> {
    return this.#batch.run();
  }
}

/** The global `Excel` namespace of the stand-in. */
export function excelNamespace(host: HostBridge) {
  return {
    async run<T>(batch: (context: StandInRequestContext) => Promise<T>): Promise<T> {
      const context = new StandInRequestContext(host);
      const result = await batch(context);
      // Excel.run sends what the batch queued after its last sync.
      await context.sync();
      return result;
    },
  };
}

/** Every class that plays an Excel type, for the test that compares their members with the add-in's use. */
export const EXCEL_STAND_INS = [
  StandInRequestContext,
  StandInWorkbook,
  StandInSettingCollection,
  StandInSetting,
  StandInCommentCollection,
  StandInComment,
  StandInWorksheetCollection,
  StandInWorksheet,
  StandInTableCollection,
  StandInTable,
  StandInChartCollection,
  StandInChart,
  StandInChartTitle,
  StandInChartAxes,
  StandInChartAxis,
  StandInChartAxisTitle,
  StandInChartLegend,
  StandInChartSeriesCollection,
  StandInChartSeries,
  StandInChartSeriesFormat,
  StandInChartLineFormat,
  StandInWorksheetCalculatedHandlers,
  StandInWorksheetFreezePanes,
  StandInRange,
  StandInRangeAreas,
  StandInRangeCollection,
  StandInRangeFormat,
  StandInSelectionChangedHandlers,
  StandInEventHandlerResult,
];
