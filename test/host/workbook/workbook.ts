/**
 * The in-memory workbook of the host stand-in: what Excel would hold. The host page draws it and calculates
 * its formulas; the stand-in's `Excel.run` reads and writes it on behalf of the add-in. It knows nothing of
 * the Office API shapes (that is test/host/standin/) nor of formulas' meaning (test/host/page/calculator.ts).
 */
import type { CellRect } from "../../../src/excel/a1";
import type { ChartRecord } from "./charts";
import { newAxis } from "./charts";

export type CellValue = string | number | boolean;
export type Visibility = "Visible" | "Hidden" | "VeryHidden";

/** An entity a function returned (Excel's EntityCellValue): the text the cell shows and its fields. */
export interface EntityCard {
  text: string;
  /** Each field as a cell of its own: a value with the format it carries, or a nested entity. */
  fields: Record<string, Cell>;
  /** The field whose value titles the card. */
  titleField?: string;
}

export interface Cell {
  /** What the cell shows: a value, an error code such as "#N/A", or "#BUSY!" while a function runs. */
  value: CellValue;
  /** The number format a function's formatted number carries; it wins over the cell's own format. */
  valueFormat?: string;
  /** The card behind a value that is an entity (the cell shows its text). */
  entity?: EntityCard;
  /** The formula typed into the cell, when it is the anchor of one. */
  formula?: string;
  /** The message of an error value (custom functions explain #VALUE! and #N/A). */
  errorMessage?: string;
  numberFormat?: string;
  /** The anchor "row,column" of the formula whose array spilled into this cell. */
  spilledFrom?: string;
  /** A reference to a cell with nothing in it (only while a formula reads its arguments; never stored). */
  blank?: boolean;
}

export interface TableRecord {
  name: string;
  address: string;
  hasHeaders: boolean;
}

/** The error values a cell can show; a function's error cells carry a message with them. */
export const ERROR_VALUES: ReadonlySet<string> = new Set([
  "#N/A",
  "#VALUE!",
  "#NAME?",
  "#REF!",
  "#SPILL!",
  "#DIV/0!",
  "#NUM!",
  "#NULL!",
  "#CALC!",
  "#FIELD!",
]);

export const cellKey = (row: number, column: number): string => `${row},${column}`;

function parseCellKey(key: string): { row: number; column: number } {
  const [row, column] = key.split(",").map(Number);
  return { row: row ?? 0, column: column ?? 0 };
}

export type WorkbookChange =
  /** Cells typed or written by the add-in. */
  | { kind: "cells"; sheet: string; rect: CellRect }
  /** Cells that show a formula's new result. */
  | { kind: "results"; sheet: string; rect: CellRect }
  | { kind: "formulas"; sheet: string; anchors: string[] }
  | { kind: "sheets" | "selection" | "layout" };

export interface CellComment {
  readonly id: string;
  readonly sheet: string;
  readonly row: number;
  readonly column: number;
  readonly content: string;
}

export class Sheet {
  readonly cells = new Map<string, Cell>();
  /** Anchor "row,column" -> the rectangle its array result occupies (more than one cell). */
  readonly spills = new Map<string, CellRect>();
  readonly tables: TableRecord[] = [];
  /** Its charts, in the order they were added (the order of Worksheet.charts). */
  readonly charts: ChartRecord[] = [];
  frozenRows = 0;
  private readonly usedRects = new Map<boolean, CellRect | undefined>();

  constructor(
    public name: string,
    public visibility: Visibility = "Visible",
  ) {}

  cell(row: number, column: number): Cell | undefined {
    return this.cells.get(cellKey(row, column));
  }

  /** The bounding rectangle of cells that hold something (valuesOnly: ignore format-only cells). */
  usedRect(valuesOnly: boolean): CellRect | undefined {
    // Kept until the sheet changes: the grid asks on every redraw, and a big export has millions of cells.
    if (this.usedRects.has(valuesOnly)) return this.usedRects.get(valuesOnly);
    const used = this.boundingRect(valuesOnly);
    this.usedRects.set(valuesOnly, used);
    return used;
  }

  private boundingRect(valuesOnly: boolean): CellRect | undefined {
    let top = Infinity;
    let left = Infinity;
    let bottom = -1;
    let right = -1;
    for (const [key, cell] of this.cells) {
      if (valuesOnly && cell.value === "" && cell.formula === undefined) continue;
      const comma = key.indexOf(",");
      const row = Number(key.slice(0, comma));
      const column = Number(key.slice(comma + 1));
      if (row < top) top = row;
      if (row > bottom) bottom = row;
      if (column < left) left = column;
      if (column > right) right = column;
    }
    return bottom < 0
      ? undefined
      : { row: top, column: left, rowCount: bottom - top + 1, columnCount: right - left + 1 };
  }

  /** Forgets what was computed from the cells; the workbook calls it with every change it announces. */
  changed(): void {
    this.usedRects.clear();
  }
}

const FORBIDDEN_SHEET_CHARACTERS = /[[\]:*?/\\]/;

/** An Office-style failure: the stand-in rejects `context.sync()` with it, as Excel does. */
export class WorkbookError extends Error {
  constructor(
    readonly code:
      | "ItemNotFound"
      | "ItemAlreadyExists"
      | "InvalidArgument"
      | "InvalidOperation"
      | "RequestPayloadSizeLimitExceeded"
      | "ResponsePayloadSizeLimitExceeded",
    message: string,
  ) {
    super(message);
    this.name = "RichApi.Error";
  }
}

export class Workbook {
  readonly sheets: Sheet[] = [];
  activeSheetName: string;
  selection: { sheet: string; rect: CellRect };
  /** The add-in's workbook settings (Excel.SettingCollection): saved with the workbook, as Excel saves them in the file. */
  readonly settings = new Map<string, unknown>();
  /** Comments (Excel.Comment), one thread per cell at most, as Excel allows. */
  readonly comments: CellComment[] = [];
  private commentIds = 0;
  private chartIds = 0;
  /** Cells whose contents the add-in has read through a range's grid properties: tests compare scans by it. */
  addInCellReads = 0;
  private readonly listeners = new Set<(change: WorkbookChange) => void>();

  constructor() {
    this.activeSheetName = this.addSheet("Sheet1").name;
    this.selection = { sheet: "Sheet1", rect: { row: 0, column: 0, rowCount: 1, columnCount: 1 } };
  }

  onChange(listener: (change: WorkbookChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(change: WorkbookChange): void {
    if ("sheet" in change) this.findSheet(change.sheet)?.changed();
    else for (const sheet of this.sheets) sheet.changed();
    for (const listener of this.listeners) listener(change);
  }

  setSetting(key: string, value: unknown): void {
    // Excel keeps a setting's value as JSON: what comes back is a copy, never the add-in's object.
    this.settings.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    this.notify({ kind: "layout" });
  }

  addComment(sheetName: string, row: number, column: number, content: string): CellComment {
    const sheet = this.sheet(sheetName);
    if (this.comments.some((c) => c.sheet === sheet.name && c.row === row && c.column === column))
      throw new WorkbookError("InvalidArgument", "The cell already has a comment.");
    const comment = {
      id: `comment-${Date.now()}-${++this.commentIds}`,
      sheet: sheet.name,
      row,
      column,
      content,
    };
    this.comments.push(comment);
    this.notify({ kind: "layout" });
    return comment;
  }

  deleteComment(id: string): void {
    const index = this.comments.findIndex((comment) => comment.id === id);
    if (index < 0) throw new WorkbookError("ItemNotFound", "The comment does not exist.");
    this.comments.splice(index, 1);
    this.notify({ kind: "layout" });
  }

  findSheet(name: string): Sheet | undefined {
    return this.sheets.find((sheet) => sheet.name.toUpperCase() === name.toUpperCase());
  }

  sheet(name: string): Sheet {
    const found = this.findSheet(name);
    if (!found) throw new WorkbookError("ItemNotFound", `The worksheet "${name}" does not exist.`);
    return found;
  }

  get activeSheet(): Sheet {
    return this.sheet(this.activeSheetName);
  }

  addSheet(name?: string): Sheet {
    const wanted = name ?? this.nextSheetName();
    if (wanted.trim() === "" || wanted.length > 31 || FORBIDDEN_SHEET_CHARACTERS.test(wanted)) {
      throw new WorkbookError("InvalidArgument", `"${wanted}" is not a valid worksheet name.`);
    }
    if (this.findSheet(wanted)) {
      throw new WorkbookError("ItemAlreadyExists", `A worksheet named "${wanted}" already exists.`);
    }
    const sheet = new Sheet(wanted);
    this.sheets.push(sheet);
    this.notify({ kind: "sheets" });
    return sheet;
  }

  deleteSheet(name: string): void {
    const sheet = this.sheet(name);
    if (this.sheets.filter((s) => s.visibility === "Visible" && s !== sheet).length === 0) {
      throw new WorkbookError("InvalidOperation", "A workbook must keep at least one visible worksheet.");
    }
    this.sheets.splice(this.sheets.indexOf(sheet), 1);
    const anchors = [...sheet.cells].filter(([, cell]) => cell.formula !== undefined).map(([key]) => key);
    if (anchors.length > 0) this.notify({ kind: "formulas", sheet: sheet.name, anchors });
    if (this.activeSheetName === sheet.name) this.activate(this.firstVisibleSheet().name);
    if (this.selection.sheet === sheet.name) this.select(this.activeSheetName, this.selection.rect);
    this.notify({ kind: "sheets" });
  }

  setVisibility(name: string, visibility: Visibility): void {
    const sheet = this.sheet(name);
    sheet.visibility = visibility;
    if (visibility !== "Visible" && this.activeSheetName === sheet.name) {
      this.activate(this.firstVisibleSheet().name);
    }
    this.notify({ kind: "sheets" });
  }

  activate(name: string): void {
    const sheet = this.sheet(name);
    if (sheet.visibility !== "Visible") {
      throw new WorkbookError("InvalidOperation", `The worksheet "${name}" is hidden.`);
    }
    this.activeSheetName = sheet.name;
    this.selection = { sheet: sheet.name, rect: { row: 0, column: 0, rowCount: 1, columnCount: 1 } };
    this.notify({ kind: "sheets" });
  }

  select(sheetName: string, rect: CellRect): void {
    this.selection = { sheet: this.sheet(sheetName).name, rect };
    this.notify({ kind: "selection" });
  }

  /** A table over `address` ("A1:C9", or qualified with its sheet's name as Excel also accepts). */
  addTable(sheetName: string, qualifiedAddress: string, hasHeaders: boolean): TableRecord {
    const address = qualifiedAddress.slice(qualifiedAddress.lastIndexOf("!") + 1);
    const taken = new Set(this.sheets.flatMap((sheet) => sheet.tables.map((table) => table.name)));
    let number = taken.size + 1;
    while (taken.has(`Table${number}`)) number++;
    const table = { name: `Table${number}`, address, hasHeaders };
    this.sheet(sheetName).tables.push(table);
    this.notify({ kind: "layout" });
    return table;
  }

  /**
   * A chart over `source` (ChartCollection.add): Excel makes a series of each column of the source, or of each
   * row (`seriesBy` "Rows"; "Auto" takes columns when the source has at least as many rows as columns). Excel
   * also guesses names and categories from text in the source's first row or column; the stand-in does not
   * (its series are named "Series1", ...), and says so here rather than guess differently.
   */
  addChart(sheetName: string, type: string, source: CellRect, seriesBy: string): ChartRecord {
    const sheet = this.sheet(sheetName);
    const byRows = seriesBy === "Rows" || (seriesBy === "Auto" && source.rowCount < source.columnCount);
    const count = byRows ? source.rowCount : source.columnCount;
    const series = Array.from({ length: count }, (_, index) => ({
      name: `Series${index + 1}`,
      lineStyle: "Continuous",
      values: {
        sheet: sheet.name,
        rect: byRows
          ? { row: source.row + index, column: source.column, rowCount: 1, columnCount: source.columnCount }
          : { row: source.row, column: source.column + index, rowCount: source.rowCount, columnCount: 1 },
      },
    }));
    const number = this.sheets.reduce((sum, each) => sum + each.charts.length, 0) + 1;
    const chart: ChartRecord = {
      id: `{chart-${Date.now()}-${++this.chartIds}}`,
      name: `Chart ${number}`,
      type,
      title: "",
      valueAxis: newAxis(),
      categoryAxis: newAxis(),
      legend: { visible: true, position: "Right" },
      position: { row: 0, column: source.column + source.columnCount + 1, rowCount: 15, columnCount: 8 },
      series,
    };
    sheet.charts.push(chart);
    this.notify({ kind: "layout" });
    return chart;
  }

  /** Changes a chart (any of its properties or series) and lets the grid draw it again. */
  changeChart(sheetName: string, id: string, change: (chart: ChartRecord) => void): void {
    const chart = this.sheet(sheetName).charts.find((each) => each.id === id);
    if (!chart) throw new WorkbookError("ItemNotFound", "The chart does not exist.");
    change(chart);
    this.notify({ kind: "layout" });
  }

  freezeRows(sheetName: string, count: number): void {
    this.sheet(sheetName).frozenRows = count;
    this.notify({ kind: "layout" });
  }

  /** Puts what a person typed into one cell. */
  enter(sheetName: string, row: number, column: number, input: CellValue): void {
    this.write(sheetName, { row, column, rowCount: 1, columnCount: 1 }, () => input);
  }

  /**
   * Writes a rectangle as Range.values or Range.formulas do: a formula ("=..."), text (a leading apostrophe
   * marks text that would otherwise read as a formula) or a value per cell; null leaves a cell as it is.
   * Listeners hear once per write, however big: the calculator about formulas, the grid about cells.
   */
  write(sheetName: string, rect: CellRect, inputAt: (r: number, c: number) => CellValue | null): void {
    const sheet = this.sheet(sheetName);
    const anchorsChanged = new Set<string>();
    for (let r = 0; r < rect.rowCount; r++) {
      for (let c = 0; c < rect.columnCount; c++) {
        const input = inputAt(r, c);
        if (input !== null) this.put(sheet, rect.row + r, rect.column + c, input, anchorsChanged);
      }
    }
    if (anchorsChanged.size > 0)
      this.notify({ kind: "formulas", sheet: sheet.name, anchors: [...anchorsChanged] });
    this.notify({ kind: "cells", sheet: sheet.name, rect });
  }

  /**
   * Writes cells as Range.valuesAsJson does: each a value with the format it carries or an entity, replacing
   * what was there (a formula included); the cell's own number format stays.
   */
  writeCells(sheetName: string, rect: CellRect, cellAt: (r: number, c: number) => Cell): void {
    const sheet = this.sheet(sheetName);
    const anchorsChanged = new Set<string>();
    for (let r = 0; r < rect.rowCount; r++) {
      for (let c = 0; c < rect.columnCount; c++) {
        const key = cellKey(rect.row + r, rect.column + c);
        const previous = sheet.cells.get(key);
        if (previous?.formula !== undefined) {
          this.clearSpill(sheet, key);
          anchorsChanged.add(key);
        }
        const { value, valueFormat, entity } = cellAt(r, c);
        const numberFormat = sheet.cells.get(key)?.numberFormat;
        if (value === "" && numberFormat === undefined) sheet.cells.delete(key);
        else sheet.cells.set(key, { value, valueFormat, entity, numberFormat });
      }
    }
    if (anchorsChanged.size > 0)
      this.notify({ kind: "formulas", sheet: sheet.name, anchors: [...anchorsChanged] });
    this.notify({ kind: "cells", sheet: sheet.name, rect });
  }

  private put(
    sheet: Sheet,
    row: number,
    column: number,
    input: CellValue,
    anchorsChanged: Set<string>,
  ): void {
    const key = cellKey(row, column);
    const previous = sheet.cells.get(key);
    if (previous?.formula !== undefined) {
      this.clearSpill(sheet, key);
      anchorsChanged.add(key);
    }
    const numberFormat = previous?.numberFormat;
    if (typeof input === "string" && input.startsWith("=") && input.length > 1) {
      sheet.cells.set(key, { value: "#BUSY!", formula: input, numberFormat });
      anchorsChanged.add(key);
      return;
    }
    const value = typeof input === "string" && input.startsWith("'") ? input.slice(1) : input;
    if (value === "" && numberFormat === undefined) sheet.cells.delete(key);
    else sheet.cells.set(key, { value, numberFormat });
  }

  setNumberFormats(
    sheetName: string,
    rect: CellRect,
    formatAt: (r: number, c: number) => string | null,
  ): void {
    const sheet = this.sheet(sheetName);
    for (let r = 0; r < rect.rowCount; r++) {
      for (let c = 0; c < rect.columnCount; c++) {
        const format = formatAt(r, c);
        if (format === null) continue;
        const key = cellKey(rect.row + r, rect.column + c);
        const cell = sheet.cells.get(key);
        if (cell) cell.numberFormat = format;
        else sheet.cells.set(key, { value: "", numberFormat: format });
      }
    }
    this.notify({ kind: "layout" });
  }

  /** Empties a rectangle like Range.clear(applyTo): "All" (the default), "Contents" or "Formats". */
  clear(sheetName: string, rect: CellRect, applyTo: "All" | "Contents" | "Formats" = "All"): void {
    const sheet = this.sheet(sheetName);
    const anchors: string[] = [];
    for (let row = rect.row; row < rect.row + rect.rowCount; row++) {
      for (let column = rect.column; column < rect.column + rect.columnCount; column++) {
        const key = cellKey(row, column);
        const cell = sheet.cells.get(key);
        if (!cell) continue;
        if (applyTo === "Formats") {
          delete cell.numberFormat;
          continue;
        }
        if (cell.formula !== undefined) {
          this.clearSpill(sheet, key);
          anchors.push(key);
        }
        const { numberFormat } = cell;
        if (applyTo === "Contents" && numberFormat !== undefined)
          sheet.cells.set(key, { value: "", numberFormat });
        else sheet.cells.delete(key);
      }
    }
    if (anchors.length > 0) this.notify({ kind: "formulas", sheet: sheet.name, anchors });
    this.notify({ kind: "cells", sheet: sheet.name, rect });
  }

  /**
   * Shows a formula's result: one value, or an array spilled from the anchor. An array that would cover
   * cells already holding something shows #SPILL!, as in Excel.
   */
  showResult(sheetName: string, anchor: string, result: Cell[][]): void {
    const sheet = this.findSheet(sheetName);
    const cell = sheet?.cells.get(anchor);
    if (!sheet || cell?.formula === undefined) return;
    // The cells the old spill leaves change too: formulas that read them calculate again.
    const before = sheet.spills.get(anchor);
    this.clearSpill(sheet, anchor);
    const { row, column } = parseCellKey(anchor);
    const rowCount = result.length;
    const columnCount = Math.max(0, ...result.map((r) => r.length));
    const first = result[0]?.[0] ?? { value: 0 };
    const shown = (value: Cell): Cell => ({
      ...value,
      formula: cell.formula,
      numberFormat: cell.numberFormat,
    });
    if (rowCount <= 1 && columnCount <= 1) {
      sheet.cells.set(anchor, shown(first));
    } else if (this.blocked(sheet, row, column, rowCount, columnCount)) {
      sheet.cells.set(anchor, shown({ value: "#SPILL!", errorMessage: "The spill range isn't blank." }));
    } else {
      result.forEach((cells, r) =>
        cells.forEach((value, c) => {
          if (r === 0 && c === 0) return;
          const key = cellKey(row + r, column + c);
          const numberFormat = sheet.cells.get(key)?.numberFormat;
          sheet.cells.set(key, { ...value, numberFormat, spilledFrom: anchor });
        }),
      );
      sheet.cells.set(anchor, shown(first));
      sheet.spills.set(anchor, { row, column, rowCount, columnCount });
    }
    const spill = sheet.spills.get(anchor) ?? { row, column, rowCount: 1, columnCount: 1 };
    this.notify({
      kind: "results",
      sheet: sheet.name,
      rect: {
        row,
        column,
        rowCount: Math.max(spill.rowCount, before?.rowCount ?? 1),
        columnCount: Math.max(spill.columnCount, before?.columnCount ?? 1),
      },
    });
  }

  private blocked(sheet: Sheet, row: number, column: number, rowCount: number, columnCount: number): boolean {
    for (let r = row; r < row + rowCount; r++) {
      for (let c = column; c < column + columnCount; c++) {
        if (r === row && c === column) continue;
        const cell = sheet.cells.get(cellKey(r, c));
        if (cell && (cell.value !== "" || cell.formula !== undefined)) return true;
      }
    }
    return false;
  }

  private clearSpill(sheet: Sheet, anchor: string): void {
    const spill = sheet.spills.get(anchor);
    if (!spill) return;
    sheet.spills.delete(anchor);
    for (let r = spill.row; r < spill.row + spill.rowCount; r++) {
      for (let c = spill.column; c < spill.column + spill.columnCount; c++) {
        const key = cellKey(r, c);
        const cell = sheet.cells.get(key);
        if (cell?.spilledFrom !== anchor) continue;
        if (cell.numberFormat === undefined) sheet.cells.delete(key);
        else sheet.cells.set(key, { value: "", numberFormat: cell.numberFormat });
      }
    }
  }

  private firstVisibleSheet(): Sheet {
    const visible = this.sheets.find((sheet) => sheet.visibility === "Visible");
    if (!visible) throw new WorkbookError("InvalidOperation", "No visible worksheet is left.");
    return visible;
  }

  private nextSheetName(): string {
    for (let n = this.sheets.length + 1; ; n++) {
      if (!this.findSheet(`Sheet${n}`)) return `Sheet${n}`;
    }
  }
}
