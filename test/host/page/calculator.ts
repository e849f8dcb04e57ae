/**
 * Excel's calculation, as far as the add-in needs it: a formula cell invokes its custom function with the
 * arguments shaped as functions.json says (a range for `matrix` parameters, one value otherwise, null for an
 * omitted one, a cancelable invocation last), shows the result or spills the array, and shows errors with
 * their messages. A formula is invoked again when a cell it refers to changes or is entered again, on
 * **Calculate now** (a full calculation), and when its function is (re)associated; an invocation still running
 * then is cancelled.
 */
import { cellAddress, type CellRect } from "../../../src/excel/a1";
import { EXCEL_REQUEST_LIMIT_BYTES, jsonByteLength } from "../../../src/tables/payloadBytes";
import { StandInInvocation, StandInStreamingInvocation } from "../standin/customFunctions";
import type { CustomFunctionImplementation } from "../standin/hostBridge";
import type { Cell, Workbook, WorkbookChange } from "../workbook/workbook";
import { ERROR_VALUES, cellKey } from "../workbook/workbook";
import { cellFromValue, isDataType, passedValue } from "../workbook/cellValues";
import { excelAddress } from "../workbook/excelAddress";
import {
  CALCULATION_RERUNS_ALL,
  holdsDataTypes,
  previewsFormulaValues,
  type CalculationType,
  type HostProfile,
} from "../profiles";
import { FormulaSyntaxError, parseFormula, referencesOf, type Expression } from "./formula";
import { callWorksheetFunction, isWorksheetFunction, negate, operate } from "./excelFunctions";

export interface FunctionMetadata {
  id: string;
  name: string;
  parameters: { name: string; dimensionality?: string; optional?: boolean }[];
  options?: {
    stream?: boolean;
    cancelable?: boolean;
    requiresAddress?: boolean;
    requiresStreamAddress?: boolean;
  };
}

type Result = Cell[][];

const BUSY = "#BUSY!";

const errorResult = (code: string, errorMessage: string): Result => [[{ value: code, errorMessage }]];

/** An empty cell as a formula reads it: one shared object, since a long range is mostly empty cells. */
const BLANK: Cell = Object.freeze({ value: "", blank: true });

/** A pending input: the formula waits and runs again when the input's own formula has its result. */
class WaitingForInput extends Error {}

/** Excel's date serial: days since 1899-12-30. */
function dateSerial(year: number, month: number, day: number): number {
  return (Date.UTC(year, month - 1, day) - Date.UTC(1899, 11, 30)) / 86_400_000;
}

function rectsIntersect(a: CellRect, b: CellRect): boolean {
  return (
    a.row < b.row + b.rowCount &&
    b.row < a.row + a.rowCount &&
    a.column < b.column + b.columnCount &&
    b.column < a.column + a.columnCount
  );
}

/**
 * A value the add-in returned as the cell shows it. A data type (an object with a `type`) is what custom
 * functions may return from CustomFunctionsRuntime 1.4 (with `allowCustomDataForDataTypeAny`); a host without
 * it shows #VALUE! for one.
 */
function shownCell(value: unknown, profile: HostProfile): Cell {
  if (isDataType(value) && !holdsDataTypes(profile)) {
    return {
      value: "#VALUE!",
      errorMessage: `${profile.label} has no data types in custom functions (CustomFunctionsRuntime 1.4).`,
    };
  }
  return cellFromValue(value);
}

function shownResult(value: unknown, profile: HostProfile): Result {
  // Excel limits a custom function's payload to 5 MB (office-js #4654); what the cell then shows is not
  // documented, so the stand-in shows the failure where a test sees it.
  if (jsonByteLength(value) > EXCEL_REQUEST_LIMIT_BYTES)
    return errorResult(
      "#VALUE!",
      "The function's result is over Excel's 5 MB limit for a custom function's payload.",
    );
  const shown = (cell: unknown) => shownCell(cell, profile);
  if (Array.isArray(value)) {
    if (value.length === 0) return errorResult("#CALC!", "The function returned an empty array.");
    return value.map((row: unknown) => (Array.isArray(row) ? row.map(shown) : [shown(row)]));
  }
  return [[shown(value)]];
}

/** A calling cell's address as Excel gives it to a function ("Sheet1!B2", "École!B2", "'Q1'!B2"). */
function callerAddress(sheetName: string, anchor: string): string {
  const [row, column] = anchor.split(",").map(Number);
  return excelAddress(sheetName, cellAddress(row ?? 0, column ?? 0));
}

function failure(error: unknown): Result {
  const cell = cellFromValue(error);
  if (ERROR_VALUES.has(String(cell.value))) return [[cell]];
  return errorResult("#VALUE!", error instanceof Error ? error.message : String(error));
}

/** A cell showing a stream: `resolve` until its first value, then the value is shown as it comes. */
interface StreamCell {
  readonly sheetName: string;
  readonly anchor: string;
  resolve: ((result: Result) => void) | undefined;
}

interface SharedStream {
  readonly invocation: StandInStreamingInvocation;
  readonly cells: Map<string, StreamCell>;
  /** What the call last set, shown at once by a cell that joins. */
  latest?: Result;
}

interface Run {
  generation: number;
  invocations: StandInInvocation[];
  /** A formula value preview: its calls say so, and nothing it shows stays in a cell. */
  preview?: boolean;
}

export class Calculator {
  private readonly implementations = new Map<string, CustomFunctionImplementation>();
  private readonly metadataByName = new Map<string, FunctionMetadata>();
  private readonly runs = new Map<string, Run>();
  /**
   * The live streaming calls, by function and arguments: cells calling a streaming function with the same
   * arguments share one call (custom-functions-web-reqs: "Excel reuses the existing stream"). A cell
   * calculated again leaves its stream; the call is cancelled when no cell is left on it.
   */
  private readonly streams = new Map<string, SharedStream>();
  /** The stream each formula cell shows, by run key. */
  private readonly streamOfCell = new Map<string, string>();
  private generation = 0;
  private readonly parsedFormulas = new Map<
    string,
    { expression: Expression; references: ReturnType<typeof referencesOf> } | Error
  >();
  /** Formulas whose function the add-in had not associated yet: sheet and anchor. */
  private readonly waitingForFunctions = new Map<string, { sheetName: string; anchor: string }>();
  private waitingCellsScheduled = false;
  /** Invocations made so far, per function id: lets a person (and the tests) see what recalculation did. */
  readonly invocationCounts = new Map<string, number>();

  constructor(
    private readonly workbook: Workbook,
    private readonly namespace: string,
    metadata: FunctionMetadata[],
    private readonly profile: HostProfile,
  ) {
    for (const fn of metadata) this.metadataByName.set(`${namespace}.${fn.name}`.toUpperCase(), fn);
    workbook.onChange((change) => this.onWorkbookChange(change));
  }

  registerFunction(id: string, implementation: CustomFunctionImplementation): void {
    this.implementations.set(id, implementation);
    // Cells typed before the add-in loaded (or while it reloaded) wait for their functions: run them once
    // the add-in has associated all of them (its associate calls come in one go).
    if (this.waitingCellsScheduled) return;
    this.waitingCellsScheduled = true;
    setTimeout(() => {
      this.waitingCellsScheduled = false;
      const waiting = [...this.waitingForFunctions.values()];
      this.waitingForFunctions.clear();
      for (const { sheetName, anchor } of waiting) this.evaluate(sheetName, anchor);
    }, 0);
  }

  /** The calculations asked for (Calculate now is Full), in order. */
  readonly calculations: CalculationType[] = [];

  /**
   * `application.calculate(type)`. Recalculate re-runs only dirty cells, and a non-volatile custom function's
   * cell is not dirty; Full and FullRebuild mark every cell of every open workbook dirty (Excel.CalculationType).
   */
  calculate(type: CalculationType): void {
    this.calculations.push(type);
    if (CALCULATION_RERUNS_ALL[type]) this.calculateAll();
  }

  /** Calculate now (and Full): every formula of every sheet runs again. */
  calculateAll(): void {
    for (const sheet of this.workbook.sheets) {
      for (const [key, cell] of sheet.cells) {
        if (cell.formula !== undefined) this.evaluate(sheet.name, key);
      }
    }
  }

  /**
   * Formula value preview: what `formula` (the part of the formula in `anchor` a person has selected while
   * editing it) gives, with every custom function told it is a preview (`isInValuePreview`). Nothing is
   * written; a streaming function's first value is the preview, and its call is cancelled then.
   */
  async preview(sheetName: string, anchor: string, formula: string): Promise<Result> {
    if (!previewsFormulaValues(this.profile))
      throw new Error(`${this.profile.label} has no formula value preview (CustomFunctionsRuntime 1.5).`);
    const run: Run = { generation: ++this.generation, invocations: [], preview: true };
    const result = await this.result(sheetName, anchor, formula, run);
    return result ?? errorResult(BUSY, "An input of the selection is still calculating.");
  }

  private onWorkbookChange(change: WorkbookChange): void {
    if (change.kind === "formulas") {
      for (const anchor of change.anchors) this.evaluate(change.sheet, anchor);
      return;
    }
    if (change.kind !== "cells" && change.kind !== "results") return;
    for (const sheet of this.workbook.sheets) {
      for (const [key, cell] of sheet.cells) {
        if (cell.formula === undefined) continue;
        const self = sheet.name === change.sheet && key === cellKey(change.rect.row, change.rect.column);
        if (change.kind === "results" && self) continue;
        if (this.dependsOn(sheet.name, cell.formula, change.sheet, change.rect))
          this.evaluate(sheet.name, key);
        else if (change.kind === "cells" && !self && this.spillMeets(sheet.name, key, cell, change)) {
          this.evaluate(sheet.name, key);
        }
      }
    }
  }

  /** A write into a spill area (or next to a #SPILL!) changes whether the array fits. */
  private spillMeets(
    sheetName: string,
    anchor: string,
    cell: Cell,
    change: { sheet: string; rect: CellRect },
  ): boolean {
    if (sheetName !== change.sheet) return false;
    if (cell.value === "#SPILL!") return true;
    const spill = this.workbook.findSheet(sheetName)?.spills.get(anchor);
    return spill !== undefined && rectsIntersect(spill, change.rect);
  }

  /**
   * A formula's expression and the references in it, parsed once per text: every change of the workbook asks each
   * formula whether it reads the changed cells.
   */
  private parsed(formula: string): { expression: Expression; references: ReturnType<typeof referencesOf> } {
    let entry = this.parsedFormulas.get(formula);
    if (!entry) {
      try {
        const expression = parseFormula(formula);
        entry = { expression, references: referencesOf(expression) };
      } catch (error) {
        entry = error instanceof Error ? error : new Error(String(error));
      }
      this.parsedFormulas.set(formula, entry);
    }
    if (entry instanceof Error) throw entry;
    return entry;
  }

  private dependsOn(sheetName: string, formula: string, changedSheet: string, rect: CellRect): boolean {
    try {
      return this.parsed(formula).references.some(
        (reference) =>
          (reference.sheet ?? sheetName).toUpperCase() === changedSheet.toUpperCase() &&
          rectsIntersect(reference.rect, rect),
      );
    } catch {
      return false;
    }
  }

  private cancel(runKey: string): void {
    const streamKey = this.streamOfCell.get(runKey);
    this.streamOfCell.delete(runKey);
    const stream = streamKey === undefined ? undefined : this.streams.get(streamKey);
    stream?.cells.delete(runKey);
    if (streamKey !== undefined && stream?.cells.size === 0) {
      this.streams.delete(streamKey);
      stream.invocation.onCanceled?.();
    }
    const run = this.runs.get(runKey);
    if (!run) return;
    this.runs.delete(runKey);
    for (const invocation of run.invocations) invocation.onCanceled?.();
  }

  private evaluate(sheetName: string, anchor: string): void {
    const runKey = `${sheetName.toUpperCase()}!${anchor}`;
    this.cancel(runKey);
    const formula = this.workbook.findSheet(sheetName)?.cells.get(anchor)?.formula;
    if (formula === undefined) return;
    const run: Run = { generation: ++this.generation, invocations: [] };
    this.runs.set(runKey, run);
    const current = () => this.runs.get(runKey)?.generation === run.generation;
    this.workbook.showResult(sheetName, anchor, [[{ value: BUSY }]]);
    void this.result(sheetName, anchor, formula, run).then((result) => {
      if (!current()) return;
      if (result !== undefined) {
        this.runs.delete(runKey);
        this.workbook.showResult(sheetName, anchor, result);
      }
    });
  }

  /** The formula's result, or undefined while an input is still calculating. */
  private async result(
    sheetName: string,
    anchor: string,
    formula: string,
    run: Run,
  ): Promise<Result | undefined> {
    let expression: Expression;
    try {
      expression = this.parsed(formula).expression;
    } catch (error) {
      return errorResult("#NAME?", error instanceof FormulaSyntaxError ? error.message : String(error));
    }
    try {
      const result = await this.value(expression, sheetName, anchor, run);
      // A formula that ends on an empty cell (=A1, =INDEX(...)) shows 0, as in Excel.
      return result.map((row) => row.map((cell) => (cell.blank ? { value: 0 } : cell)));
    } catch (error) {
      if (error instanceof WaitingForInput) return undefined;
      return failure(error);
    }
  }

  private async value(expression: Expression, sheetName: string, anchor: string, run: Run): Promise<Result> {
    switch (expression.kind) {
      case "literal":
        return [[{ value: expression.value }]];
      case "omitted":
        return [[{ value: "" }]];
      case "reference":
        return this.referenced(expression.sheet ?? sheetName, expression.rect);
      case "field":
        return this.field(expression, sheetName);
      case "call":
        return this.call(expression, sheetName, anchor, run);
      case "operator":
        return operate(
          expression.operator,
          await this.value(expression.left, sheetName, anchor, run),
          await this.value(expression.right, sheetName, anchor, run),
        );
      case "negation":
        return negate(await this.value(expression.operand, sheetName, anchor, run));
    }
  }

  /** `=A1.asking_rent`: a field of the entity in a cell, with the format it carries. */
  private field(expression: Extract<Expression, { kind: "field" }>, sheetName: string): Result {
    const { reference, field } = expression;
    const cells = this.referenced(reference.sheet ?? sheetName, reference.rect);
    return cells.map((row) =>
      row.map((cell) => {
        if (ERROR_VALUES.has(String(cell.value))) return cell;
        if (!cell.entity) return { value: "#FIELD!", errorMessage: `The cell holds no card with fields.` };
        const found = Object.entries(cell.entity.fields).find(
          ([name]) => name.toLowerCase() === field.toLowerCase(),
        );
        if (!found) return { value: "#FIELD!", errorMessage: `The card has no field "${field}".` };
        return found[1];
      }),
    );
  }

  private referenced(sheetName: string, rect: CellRect): Result {
    const sheet = this.workbook.findSheet(sheetName);
    if (!sheet) return errorResult("#REF!", `There is no sheet named "${sheetName}".`);
    // Past the cells that hold something every cell is empty: a long range (a block read over the rows a spill
    // may grow into) is not looked up cell by cell there.
    const used = sheet.usedRect(true);
    const lastRow = used ? used.row + used.rowCount - 1 : -1;
    const lastColumn = used ? used.column + used.columnCount - 1 : -1;
    const emptyRow: readonly Cell[] = Object.freeze(Array<Cell>(rect.columnCount).fill(BLANK));
    const rows: Cell[][] = [];
    for (let r = 0; r < rect.rowCount; r++) {
      const row = rect.row + r;
      if (row > lastRow) {
        rows.push(emptyRow as Cell[]);
        continue;
      }
      const cells: Cell[] = [];
      for (let c = 0; c < rect.columnCount; c++) {
        const column = rect.column + c;
        const cell = column > lastColumn ? undefined : sheet.cell(row, column);
        if (cell?.value === BUSY) throw new WaitingForInput();
        if (!cell || (cell.value === "" && cell.formula === undefined)) cells.push(BLANK);
        else {
          const { value, errorMessage, valueFormat, entity } = cell;
          cells.push({ value, errorMessage, valueFormat, entity });
        }
      }
      rows.push(cells);
    }
    return rows;
  }

  private async call(
    expression: Extract<Expression, { kind: "call" }>,
    sheetName: string,
    anchor: string,
    run: Run,
  ): Promise<Result> {
    const args = await Promise.all(
      expression.args.map(async (arg) => ({
        omitted: arg.kind === "omitted",
        result: await this.value(arg, sheetName, anchor, run),
      })),
    );
    // A worksheet function reads its arguments' errors as Excel's reference says (COUNT skips them, IF takes one
    // branch), so it gets them as they are.
    if (isWorksheetFunction(expression.name)) {
      return callWorksheetFunction(
        expression.name,
        expression.args.map((arg, index) => ({
          result: args[index]?.result ?? [[{ value: "" }]],
          fromReference: arg.kind === "reference",
          omitted: arg.kind === "omitted",
        })),
      );
    }
    // As in Excel, an error in an argument of a custom function is the result, without calling the function.
    for (const { result } of args) {
      const error = result.flat().find((cell) => ERROR_VALUES.has(String(cell.value)));
      if (error) return [[error]];
    }
    if (expression.name === "DATE") return this.date(args.map(({ result }) => result));
    const metadata = this.metadataByName.get(expression.name);
    if (!metadata) return errorResult("#NAME?", `There is no function named ${expression.name}.`);
    const implementation = this.implementations.get(metadata.id);
    // The add-in has not associated its functions yet. A streaming function's cell shows #NAME? and the add-in's
    // loading leaves it so, until the formula is entered again (office-js #6355, docs/hosts.md); any other
    // waits for it (registerFunction runs the cell again).
    if (!implementation && metadata.options?.stream)
      return errorResult("#NAME?", `${expression.name} was not loaded when this cell calculated.`);
    if (!implementation) {
      this.waitingForFunctions.set(`${sheetName.toUpperCase()}!${anchor}`, { sheetName, anchor });
      throw new WaitingForInput();
    }
    const parameters = metadata.parameters;
    if (args.length > parameters.length) {
      return errorResult("#VALUE!", `${expression.name} takes at most ${parameters.length} arguments.`);
    }
    const required = parameters.filter((parameter) => !parameter.optional).length;
    if (args.length < required) {
      return errorResult("#VALUE!", `${expression.name} needs at least ${required} arguments.`);
    }
    const passed: unknown[] = [];
    for (const [index, parameter] of parameters.entries()) {
      const arg = args[index];
      if (!arg || arg.omitted) {
        passed.push(null);
      } else if (parameter.dimensionality === "matrix") {
        passed.push(arg.result.map((row) => row.map((cell) => this.argumentOf(cell))));
      } else if (arg.result.length === 1 && arg.result[0]?.length === 1) {
        passed.push(this.argumentOf(arg.result[0][0] as Cell));
      } else {
        return errorResult(
          "#VALUE!",
          `${parameter.name} of ${expression.name} takes one value; the stand-in passes ranges only to range parameters.`,
        );
      }
    }
    const preview = previewsFormulaValues(this.profile) ? run.preview === true : undefined;
    if (metadata.options?.stream) {
      const shared = preview ? undefined : `${metadata.id}(${JSON.stringify(passed)})`;
      const joined = shared === undefined ? undefined : this.joinStream(shared, sheetName, anchor);
      if (joined) return joined;
      this.invocationCounts.set(metadata.id, (this.invocationCounts.get(metadata.id) ?? 0) + 1);
      return this.stream(
        implementation,
        passed,
        { sheetName, anchor, shared },
        metadata.options.requiresStreamAddress === true,
        preview,
      );
    }
    this.invocationCounts.set(metadata.id, (this.invocationCounts.get(metadata.id) ?? 0) + 1);
    const invocation = new StandInInvocation(
      metadata.options?.requiresAddress ? callerAddress(sheetName, anchor) : undefined,
      preview,
    );
    run.invocations.push(invocation);
    try {
      return shownResult(await implementation(...passed, invocation), this.profile);
    } catch (error) {
      return failure(error);
    }
  }

  /** A cell on a live stream with its arguments: its last value at once, or the first one when it comes. */
  private joinStream(streamKey: string, sheetName: string, anchor: string): Promise<Result> | undefined {
    const stream = this.streams.get(streamKey);
    if (!stream) return undefined;
    const runKey = `${sheetName.toUpperCase()}!${anchor}`;
    this.streamOfCell.set(runKey, streamKey);
    return new Promise<Result>((resolve) => {
      if (stream.latest) resolve(stream.latest);
      stream.cells.set(runKey, { sheetName, anchor, resolve: stream.latest ? undefined : resolve });
    });
  }

  /**
   * A streaming call: its first `setResult` is the result of each cell on it; every later one shows in those
   * cells as it comes, until the last of them is calculated again (which cancels the call) or its formula
   * goes. A preview shows the first value only, cancels the call, and shares it with no cell.
   */
  private stream(
    implementation: CustomFunctionImplementation,
    passed: unknown[],
    caller: { sheetName: string; anchor: string; shared: string | undefined },
    withAddress: boolean,
    preview: boolean | undefined,
  ): Promise<Result> {
    const { sheetName, anchor, shared } = caller;
    const runKey = `${sheetName.toUpperCase()}!${anchor}`;
    return new Promise<Result>((resolve) => {
      const address = withAddress ? callerAddress(sheetName, anchor) : undefined;
      const cells = new Map<string, StreamCell>([[runKey, { sheetName, anchor, resolve }]]);
      let previewed = false;
      const live = () =>
        shared === undefined ? !previewed : this.streams.get(shared)?.invocation === invocation;
      const invocation = new StandInStreamingInvocation(address, preview, (value) => {
        if (!live()) return;
        previewed = preview === true;
        const shown = shownResult(value, this.profile);
        if (stream) stream.latest = shown;
        for (const cell of cells.values()) {
          if (cell.resolve) {
            cell.resolve(shown);
            cell.resolve = undefined;
          } else this.workbook.showResult(cell.sheetName, cell.anchor, shown);
        }
        if (preview) invocation.onCanceled?.();
      });
      const stream: SharedStream | undefined = shared === undefined ? undefined : { invocation, cells };
      if (shared !== undefined && stream) {
        this.streams.set(shared, stream);
        this.streamOfCell.set(runKey, shared);
      }
      const failed = (error: unknown) => {
        for (const cell of cells.values()) cell.resolve?.(failure(error));
        if (shared !== undefined && live()) this.streams.delete(shared);
      };
      try {
        Promise.resolve(implementation(...passed, invocation)).catch(failed);
      } catch (error) {
        failed(error);
      }
    });
  }

  /** An empty cell reaches a function as the host passes it: null on the web, 0 on desktop (office-js #4702). */
  private argumentOf(cell: Cell): unknown {
    return cell.blank ? this.profile.emptyCellArgument : passedValue(cell);
  }

  private date(args: Result[]): Result {
    const numbers = args.map((result) => Number(result[0]?.[0]?.value));
    const [year, month, day] = numbers;
    if (
      args.length !== 3 ||
      year === undefined ||
      month === undefined ||
      day === undefined ||
      numbers.some(Number.isNaN)
    ) {
      return errorResult("#VALUE!", "DATE takes a year, a month and a day.");
    }
    return [[{ value: dateSerial(year, month, day) }]];
  }

  /** How many formulas are calculating (or waiting for an input that is): for the page's status line. */
  calculatingCount(): number {
    return this.runs.size;
  }
}
