/**
 * The grid a person works in: the active sheet's cells (formulas, spills, errors with their messages on
 * hover, tables, frozen rows), a formula bar to type into the selected cell, and the sheet tabs.
 */
import {
  cellAddress,
  columnLetters,
  parseCellAddress,
  rectAddress,
  rectContains,
} from "../../../src/excel/a1";
import type { Cell, Sheet, Workbook } from "../workbook/workbook";
import { ERROR_VALUES, cellKey } from "../workbook/workbook";
import { displayText } from "./displayText";

/**
 * The grid draws at most this much of a sheet: more rows than a screen shows, fewer than an export holds
 * (the grid is drawn again at every change, and a large table would make each change slow to show).
 */
const MAX_DRAWN_ROWS = 100;
const MAX_DRAWN_COLUMNS = 60;
const MIN_ROWS = 30;
const MIN_COLUMNS = 12;

const ARROW_MOVES: Readonly<Record<string, readonly [number, number]>> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The host page lacks #${id}.`);
  return found as T;
}

/** Where a drawn cell sits in the sheet's tables: their header row, their body, or neither. */
function tablePart(sheet: Sheet): (row: number, column: number) => "table-header" | "table-body" | undefined {
  const tables = sheet.tables.map((table) => {
    const [first = "A1", last = first] = table.address.split(":");
    const start = parseCellAddress(first);
    const end = parseCellAddress(last);
    const rect = {
      row: start.row,
      column: start.column,
      rowCount: end.row - start.row + 1,
      columnCount: end.column - start.column + 1,
    };
    return { rect, hasHeaders: table.hasHeaders };
  });
  return (row, column) => {
    const table = tables.find(({ rect }) => rectContains(rect, row, column));
    if (!table) return undefined;
    return table.hasHeaders && row === table.rect.row ? "table-header" : "table-body";
  };
}

export class GridView {
  private readonly grid = element<HTMLTableElement>("grid");
  private readonly nameBox = element<HTMLInputElement>("name-box");
  private readonly formulaInput = element<HTMLInputElement>("formula-input");
  private readonly tabs = element<HTMLElement>("sheet-tabs");
  private readonly note = element<HTMLElement>("grid-note");
  private readonly cellMessage = element<HTMLElement>("cell-message");
  private readonly entityCard = element<HTMLElement>("entity-card");
  private drawScheduled = false;
  /** The sheet whose tab was last scrolled into view. */
  private tabShown: string | undefined;

  constructor(private readonly workbook: Workbook) {
    workbook.onChange(() => this.scheduleDraw());
    this.grid.addEventListener("mousedown", (event) => this.onCellClick(event));
    this.grid.addEventListener("dblclick", () => this.formulaInput.focus());
    this.formulaInput.addEventListener("keydown", (event) => this.onFormulaKey(event));
    this.nameBox.addEventListener("change", () => this.goTo(this.nameBox.value));
    document.addEventListener("keydown", (event) => this.onGridKey(event));
    this.draw();
  }

  private get sheet(): Sheet {
    return this.workbook.activeSheet;
  }

  private scheduleDraw(): void {
    if (this.drawScheduled) return;
    this.drawScheduled = true;
    requestAnimationFrame(() => {
      this.drawScheduled = false;
      this.draw();
    });
  }

  draw(): void {
    const sheet = this.sheet;
    const used = sheet.usedRect(false);
    const rowCount = Math.min(MAX_DRAWN_ROWS, Math.max(MIN_ROWS, (used ? used.row + used.rowCount : 0) + 5));
    const columnCount = Math.min(
      MAX_DRAWN_COLUMNS,
      Math.max(MIN_COLUMNS, (used ? used.column + used.columnCount : 0) + 2),
    );
    const tablePartAt = tablePart(sheet);
    const selection = this.workbook.selection.sheet === sheet.name ? this.workbook.selection.rect : undefined;

    const head = document.createElement("tr");
    head.append(document.createElement("th"));
    for (let column = 0; column < columnCount; column++) {
      const th = document.createElement("th");
      th.textContent = columnLetters(column);
      head.append(th);
    }
    const rows = [head];
    for (let row = 0; row < rowCount; row++) {
      const tr = document.createElement("tr");
      if (row < sheet.frozenRows) tr.className = "frozen";
      const th = document.createElement("th");
      th.textContent = String(row + 1);
      tr.append(th);
      for (let column = 0; column < columnCount; column++) {
        const key = cellKey(row, column);
        const cell = sheet.cells.get(key);
        const td = document.createElement("td");
        td.dataset.address = cellAddress(row, column);
        td.textContent = displayText(cell);
        const classes: string[] = [];
        if (typeof cell?.value === "number") classes.push("number");
        if (cell?.formula !== undefined) classes.push("formula");
        if (cell?.spilledFrom !== undefined || sheet.spills.has(key)) classes.push("spill");
        if (cell && ERROR_VALUES.has(String(cell.value))) classes.push("error");
        if (cell?.value === "#BUSY!") classes.push("busy");
        if (cell?.entity) classes.push("entity");
        const inTable = tablePartAt(row, column);
        if (inTable) classes.push(inTable);
        if (selection && rectContains(selection, row, column)) classes.push("selected");
        td.className = classes.join(" ");
        if (cell?.errorMessage) td.title = cell.errorMessage;
        else if (cell?.entity) td.title = `${cell.entity.text}: select the cell to see its card`;
        else if (cell?.formula) td.title = cell.formula;
        tr.append(td);
      }
      rows.push(tr);
    }
    this.grid.replaceChildren(...rows);
    const hidden: string[] = [];
    if (used && used.row + used.rowCount > rowCount) hidden.push(`rows after ${rowCount}`);
    if (used && used.column + used.columnCount > columnCount) {
      hidden.push(`columns after ${columnLetters(columnCount - 1)}`);
    }
    this.note.textContent =
      used && hidden.length > 0
        ? `The sheet holds ${rectAddress(used)}; the grid leaves out ${hidden.join(" and ")}.`
        : "";
    this.drawTabs();
    this.showSelection();
  }

  private drawTabs(): void {
    const tabs = this.workbook.sheets
      .filter((sheet) => sheet.visibility === "Visible")
      .map((sheet) => {
        const tab = document.createElement("button");
        tab.type = "button";
        tab.textContent = sheet.name;
        tab.className = sheet.name === this.sheet.name ? "tab active" : "tab";
        tab.addEventListener("click", () => this.workbook.activate(sheet.name));
        return tab;
      });
    const add = document.createElement("button");
    add.type = "button";
    add.id = "add-sheet";
    add.title = "New sheet";
    add.textContent = "+";
    add.addEventListener("click", () => this.workbook.activate(this.workbook.addSheet().name));
    this.tabs.replaceChildren(...tabs, add);
    // Scrolling lays the page out at once: only when another sheet has become the active one.
    if (this.sheet.name !== this.tabShown) {
      this.tabShown = this.sheet.name;
      this.tabs.querySelector(".tab.active")?.scrollIntoView({ inline: "nearest", block: "nearest" });
    }
  }

  private showSelection(): void {
    const { rect } = this.workbook.selection;
    this.nameBox.value = rectAddress(rect);
    const cell = this.sheet.cell(rect.row, rect.column);
    // Excel shows an error's message when the cell is selected; so does the host, under the formula bar.
    this.cellMessage.textContent = cell?.errorMessage ? `${String(cell.value)}: ${cell.errorMessage}` : "";
    this.showCard(cell, cellAddress(rect.row, rect.column));
    if (document.activeElement === this.formulaInput) return;
    this.formulaInput.value = cell?.formula ?? (cell ? displayText({ value: cell.value }) : "");
  }

  /**
   * Excel opens an entity's card from the cell: the stand-in shows the card of the selected cell beside the
   * grid, every field with its value as its format shows it, and the formula that reads it.
   */
  private showCard(cell: Cell | undefined, address: string): void {
    const entity = cell?.entity;
    this.entityCard.hidden = !entity;
    if (!entity) {
      this.entityCard.replaceChildren();
      return;
    }
    const title = document.createElement("h2");
    title.textContent = entity.text;
    const rows = Object.entries(entity.fields).map(([name, field]) => {
      const tr = document.createElement("tr");
      tr.dataset.field = name;
      const th = document.createElement("th");
      th.textContent = name;
      th.title = `=${address}.${name}`;
      const td = document.createElement("td");
      td.textContent = displayText(field);
      if (typeof field.value === "number") td.className = "number";
      tr.append(th, td);
      return tr;
    });
    const table = document.createElement("table");
    table.append(...rows);
    const hint = document.createElement("p");
    hint.textContent = `A formula reads a field as =${address}.field_name`;
    this.entityCard.replaceChildren(title, hint, table);
  }

  private onCellClick(event: MouseEvent): void {
    const td = (event.target as HTMLElement).closest("td");
    const address = td?.dataset.address;
    if (!address) return;
    const target = parseCellAddress(address);
    const current = this.workbook.selection.rect;
    if (event.shiftKey) {
      const row = Math.min(current.row, target.row);
      const column = Math.min(current.column, target.column);
      this.workbook.select(this.sheet.name, {
        row,
        column,
        rowCount: Math.abs(target.row - current.row) + 1,
        columnCount: Math.abs(target.column - current.column) + 1,
      });
    } else {
      this.workbook.select(this.sheet.name, { ...target, rowCount: 1, columnCount: 1 });
    }
  }

  private goTo(address: string): void {
    try {
      const [first = "", last = first] = address.split(":");
      const start = parseCellAddress(first);
      const end = parseCellAddress(last);
      this.workbook.select(this.sheet.name, {
        row: Math.min(start.row, end.row),
        column: Math.min(start.column, end.column),
        rowCount: Math.abs(end.row - start.row) + 1,
        columnCount: Math.abs(end.column - start.column) + 1,
      });
    } catch {
      this.showSelection();
    }
  }

  private onFormulaKey(event: KeyboardEvent): void {
    if (event.key === "Escape") {
      this.formulaInput.blur();
      this.showSelection();
      return;
    }
    if (event.key !== "Enter") return;
    event.preventDefault();
    const { rect } = this.workbook.selection;
    const text = this.formulaInput.value;
    const number = text.trim() !== "" && !Number.isNaN(Number(text)) ? Number(text) : undefined;
    this.workbook.enter(this.sheet.name, rect.row, rect.column, number ?? text);
    this.formulaInput.blur();
    this.workbook.select(this.sheet.name, {
      row: rect.row + 1,
      column: rect.column,
      rowCount: 1,
      columnCount: 1,
    });
  }

  /**
   * Keys on the grid, as in Excel: arrows move the selection, F2 edits the cell, typing starts a new entry,
   * Delete empties the selection.
   */
  private onGridKey(event: KeyboardEvent): void {
    if (document.activeElement !== document.body || event.ctrlKey || event.metaKey || event.altKey) return;
    const move = ARROW_MOVES[event.key];
    const { rect } = this.workbook.selection;
    if (move) {
      event.preventDefault();
      const row = Math.max(0, rect.row + move[0]);
      const column = Math.max(0, rect.column + move[1]);
      this.workbook.select(this.sheet.name, { row, column, rowCount: 1, columnCount: 1 });
    } else if (event.key === "F2") {
      event.preventDefault();
      this.formulaInput.focus();
    } else if (event.key === "Delete" || event.key === "Backspace") {
      this.workbook.write(this.sheet.name, rect, () => "");
    } else if (event.key.length === 1) {
      this.formulaInput.value = "";
      this.formulaInput.focus();
    }
  }
}
