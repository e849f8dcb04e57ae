/**
 * The host keeps its workbook in the browser's localStorage, as Excel keeps a saved file: after a reload the
 * sheets come back with the values last calculated, and (as in Excel, where custom functions do not run when
 * a workbook opens) nothing is invoked until something recalculates.
 */
import type { CellRect } from "../../../src/excel/a1";
import type { ChartRecord } from "./charts";
import type { Cell, CellComment, TableRecord, Visibility } from "./workbook";
import { Sheet, Workbook } from "./workbook";

interface SheetSnapshot {
  name: string;
  visibility: Visibility;
  cells: [string, Cell][];
  spills: [string, CellRect][];
  tables: TableRecord[];
  frozenRows: number;
  /** Absent in workbooks saved before the stand-in had charts. */
  charts?: ChartRecord[];
}

interface WorkbookSnapshot {
  version: 1;
  sheets: SheetSnapshot[];
  activeSheetName: string;
  /** The add-in's settings (absent in workbooks saved before the stand-in kept them). */
  settings?: [string, unknown][];
  comments?: CellComment[];
}

export const STORAGE_KEY = "rent-market-host-workbook";
/** Workbooks with more cells are not saved (a reload then starts with an empty workbook). */
const MAX_SAVED_CELLS = 100_000;
/** How long the workbook stays unchanged before it is saved (leaving the page saves at once). */
const QUIET_BEFORE_SAVE_MS = 1_000;

function snapshotOf(workbook: Workbook): WorkbookSnapshot {
  return {
    version: 1,
    activeSheetName: workbook.activeSheetName,
    settings: [...workbook.settings],
    comments: workbook.comments,
    sheets: workbook.sheets.map((sheet) => ({
      name: sheet.name,
      visibility: sheet.visibility,
      cells: [...sheet.cells],
      spills: [...sheet.spills],
      tables: sheet.tables,
      charts: sheet.charts,
      frozenRows: sheet.frozenRows,
    })),
  };
}

/** A formula still calculating when the page went away has no value to show: it shows #BUSY! until recalculated. */
export function restoreInto(workbook: Workbook, snapshot: WorkbookSnapshot): void {
  workbook.sheets.splice(0);
  for (const saved of snapshot.sheets) {
    const sheet = new Sheet(saved.name, saved.visibility);
    for (const [key, cell] of saved.cells) sheet.cells.set(key, cell);
    for (const [key, rect] of saved.spills) sheet.spills.set(key, rect);
    sheet.tables.push(...saved.tables);
    sheet.charts.push(...(saved.charts ?? []));
    sheet.frozenRows = saved.frozenRows;
    workbook.sheets.push(sheet);
  }
  workbook.comments.splice(0, workbook.comments.length, ...(snapshot.comments ?? []));
  workbook.settings.clear();
  for (const [key, value] of snapshot.settings ?? []) workbook.settings.set(key, value);
  workbook.activeSheetName = snapshot.activeSheetName;
  workbook.selection = {
    sheet: snapshot.activeSheetName,
    rect: { row: 0, column: 0, rowCount: 1, columnCount: 1 },
  };
  workbook.notify({ kind: "sheets" });
}

export function loadSaved(storage: Storage): WorkbookSnapshot | undefined {
  const text = storage.getItem(STORAGE_KEY);
  if (!text) return undefined;
  const snapshot = JSON.parse(text) as WorkbookSnapshot;
  return snapshot.version === 1 && snapshot.sheets.length > 0 ? snapshot : undefined;
}

/**
 * Saves once changes have been quiet for a moment (a big export or a stream of recalculations is one save,
 * not one per chunk: each save writes the whole workbook), and at once when the page goes away, so a reload
 * never finds a result older than what was on screen.
 */
export function keepSaved(workbook: Workbook, storage: Storage, page: Window): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    const cells = workbook.sheets.reduce((sum, sheet) => sum + sheet.cells.size, 0);
    try {
      // A big export would not fit localStorage's few megabytes, and writing it would stall the page.
      if (cells > MAX_SAVED_CELLS) storage.removeItem(STORAGE_KEY);
      else storage.setItem(STORAGE_KEY, JSON.stringify(snapshotOf(workbook)));
    } catch {
      // Over the storage quota all the same: the page works on, unsaved.
    }
  };
  workbook.onChange(() => {
    clearTimeout(timer);
    timer = setTimeout(save, QUIET_BEFORE_SAVE_MS);
  });
  page.addEventListener("pagehide", save);
}
