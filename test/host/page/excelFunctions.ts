/**
 * The worksheet functions and operators the stand-in calculates besides the add-in's own: the few the workbook
 * templates use (IF, NA, COUNT, AVERAGE, MIN, MAX, EOMONTH, INDEX, MATCH, COUNTIFS, AVERAGEIFS), each as
 * Microsoft's function reference describes it, and refused with a message where the stand-in goes no further
 * (a MATCH other than exact, a criterion with an operator or a wildcard, INDEX of a whole row or column).
 * Ranges are read as Excel reads them in these functions: numbers count, text, logical values and empty cells
 * in a range are left out, an error value in a range is the answer.
 */
import type { Cell } from "../workbook/workbook";
import { ERROR_VALUES } from "../workbook/workbook";
import type { BinaryOperator } from "./formula";

export type Result = Cell[][];

/** An argument as the function receives it: its cells, and whether it was a reference (a range) or a value. */
export interface Argument {
  readonly result: Result;
  readonly fromReference: boolean;
  readonly omitted: boolean;
}

const error = (code: string, errorMessage?: string): Result => [[{ value: code, errorMessage }]];
const single = (value: Cell["value"]): Result => [[{ value }]];

/** An error value a function answers with, as soon as it is found. */
class ErrorValue extends Error {
  constructor(readonly cell: Cell) {
    super(String(cell.value));
  }
}

const isError = (cell: Cell): boolean => typeof cell.value === "string" && ERROR_VALUES.has(cell.value);

function throwIfError(cell: Cell): Cell {
  if (isError(cell)) throw new ErrorValue(cell);
  return cell;
}

const refuse = (message: string): never => {
  throw new ErrorValue({
    value: "#VALUE!",
    errorMessage: `The host stand-in does not calculate this: ${message}`,
  });
};

/** One value where a function takes one: a single cell (the stand-in has no implicit intersection). */
function scalar(result: Result, what: string): Cell {
  if (result.length !== 1 || result[0]?.length !== 1) refuse(`${what} takes one value, not a range.`);
  return throwIfError(result[0]?.[0] as Cell);
}

/** A number as arithmetic reads one: logical values are 1 and 0, an empty cell 0, text that is a number. */
function numberOf(cell: Cell): number {
  throwIfError(cell);
  const { value } = cell;
  if (cell.blank || value === "") return 0;
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  const parsed = value.trim() === "" ? Number.NaN : Number(value);
  if (Number.isNaN(parsed))
    throw new ErrorValue({ value: "#VALUE!", errorMessage: `"${value}" is not a number.` });
  return parsed;
}

/** Text as `&` makes it: numbers in general form, TRUE/FALSE, an empty cell "". */
function textOf(cell: Cell): string {
  throwIfError(cell);
  if (cell.blank) return "";
  if (typeof cell.value === "boolean") return cell.value ? "TRUE" : "FALSE";
  return String(cell.value);
}

/** Excel's order for comparison: numbers < text < logical values; text compared without case. */
function compare(left: Cell, right: Cell): number {
  const rank = (cell: Cell) => (typeof cell.value === "number" ? 0 : typeof cell.value === "string" ? 1 : 2);
  // An empty cell compares as 0 with a number, as "" with text, as FALSE with a logical value.
  const filled = (cell: Cell, other: Cell): Cell => {
    if (!cell.blank && cell.value !== "") return cell;
    if (typeof other.value === "number") return { value: 0 };
    if (typeof other.value === "boolean") return { value: false };
    return { value: "" };
  };
  const a = filled(left, right);
  const b = filled(right, left);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a.value === "string") {
    const [x, y] = [a.value.toLowerCase(), String(b.value).toLowerCase()];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number(a.value) - Number(b.value);
}

function checkNumber(value: number): Result {
  if (!Number.isFinite(value)) return error("#NUM!", "The result is not a finite number.");
  return single(value);
}

/** `left operator right`, each one value. */
export function operate(operator: BinaryOperator, left: Result, right: Result): Result {
  try {
    const a = scalar(left, `The ${operator} operator`);
    const b = scalar(right, `The ${operator} operator`);
    switch (operator) {
      case "&":
        return single(textOf(a) + textOf(b));
      case "+":
        return checkNumber(numberOf(a) + numberOf(b));
      case "-":
        return checkNumber(numberOf(a) - numberOf(b));
      case "*":
        return checkNumber(numberOf(a) * numberOf(b));
      case "/": {
        const divisor = numberOf(b);
        const dividend = numberOf(a);
        return divisor === 0 ? error("#DIV/0!", "Division by zero.") : checkNumber(dividend / divisor);
      }
      default: {
        const order = compare(a, b);
        const holds = {
          "=": order === 0,
          "<>": order !== 0,
          "<": order < 0,
          ">": order > 0,
          "<=": order <= 0,
          ">=": order >= 0,
        };
        return single(holds[operator]);
      }
    }
  } catch (thrown) {
    if (thrown instanceof ErrorValue) return [[thrown.cell]];
    throw thrown;
  }
}

export function negate(operand: Result): Result {
  try {
    return checkNumber(-numberOf(scalar(operand, "The - sign")));
  } catch (thrown) {
    if (thrown instanceof ErrorValue) return [[thrown.cell]];
    throw thrown;
  }
}

/**
 * The numbers of the arguments as COUNT, AVERAGE, MIN and MAX take them: in a range, numbers only (an error
 * value is the answer, unless `skipErrors`); typed as an argument, a number, a logical value or text that is a
 * number (other text is #VALUE!).
 */
function numbersOf(args: readonly Argument[], skipErrors = false): number[] {
  const numbers: number[] = [];
  for (const arg of args) {
    if (arg.omitted) continue;
    if (arg.fromReference) {
      for (const cell of arg.result.flat()) {
        if (isError(cell)) {
          if (skipErrors) continue;
          throw new ErrorValue(cell);
        }
        if (typeof cell.value === "number") numbers.push(cell.value);
      }
      continue;
    }
    const cell = scalar(arg.result, "A value typed as an argument");
    if (skipErrors) {
      // COUNT: a number, a logical value or text that is a number typed as an argument counts; other text not.
      const counted =
        typeof cell.value !== "string" || (cell.value.trim() !== "" && !Number.isNaN(Number(cell.value)));
      if (counted && !cell.blank) numbers.push(numberOf(cell));
      continue;
    }
    numbers.push(numberOf(cell));
  }
  return numbers;
}

/** A logical value where IF wants one: numbers are TRUE unless 0; text is #VALUE!. */
function truthOf(cell: Cell): boolean {
  if (cell.blank || cell.value === "") return false;
  if (typeof cell.value === "boolean") return cell.value;
  if (typeof cell.value === "number") return cell.value !== 0;
  throw new ErrorValue({ value: "#VALUE!", errorMessage: `IF: "${cell.value}" is not a logical value.` });
}

const integerOf = (cell: Cell): number => Math.trunc(numberOf(cell));

/** Excel's date serial of a UTC date: days since 1899-12-30 (dates after February 1900). */
const serialOf = (ms: number): number => Math.round((ms - Date.UTC(1899, 11, 30)) / 86_400_000);
const msOf = (serial: number): number => Date.UTC(1899, 11, 30) + serial * 86_400_000;

function eomonth(start: Cell, months: Cell): Result {
  const serial = integerOf(start);
  if (serial < 1) return error("#NUM!", "EOMONTH: start_date is not a valid date.");
  const date = new Date(msOf(serial));
  // Day 0 of the month after the target month is the target month's last day.
  const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + integerOf(months) + 1, 0);
  const result = serialOf(end);
  return result < 1 ? error("#NUM!", "EOMONTH: the result is before 1900.") : single(result);
}

/** A range's cells in one line, for MATCH: a single row or a single column. */
function line(result: Result): Cell[] | undefined {
  if (result.length === 1) return result[0] ?? [];
  if (result.every((row) => row.length === 1)) return result.map((row) => row[0] as Cell);
  return undefined;
}

/** The 1-based position of the first cell equal to the lookup value (match_type 0); #N/A when none is. */
function match(args: readonly Argument[]): Result {
  const [lookup, array, type] = args;
  if (!lookup || !array) return error("#N/A", "MATCH takes a lookup value and a lookup array.");
  const wanted = scalar(lookup.result, "MATCH's lookup_value");
  if (type && !type.omitted && numberOf(scalar(type.result, "MATCH's match_type")) !== 0)
    refuse("MATCH with a match_type other than 0 (exact).");
  if (typeof wanted.value === "string" && /[*?~]/.test(wanted.value)) refuse("MATCH with a wildcard.");
  const cells = line(array.result);
  if (!cells) return error("#N/A", "MATCH: lookup_array is neither one row nor one column.");
  const found = cells.findIndex(
    (cell) =>
      !isError(cell) &&
      !cell.blank &&
      cell.value !== "" &&
      typeof cell.value === typeof wanted.value &&
      compare(cell, wanted) === 0,
  );
  return found < 0
    ? error("#N/A", `MATCH: ${textOf(wanted)} is not in the lookup array.`)
    : single(found + 1);
}

/** The cell at a row and column of a range (1-based); one index picks along a single row or column. */
function index(args: readonly Argument[]): Result {
  const [array, rowArg, columnArg] = args;
  if (!array || !rowArg) return error("#VALUE!", "INDEX takes an array and a row number.");
  const rows = array.result.length;
  const columns = array.result[0]?.length ?? 0;
  let row = integerOf(scalar(rowArg.result, "INDEX's row_num"));
  let column =
    columnArg && !columnArg.omitted ? integerOf(scalar(columnArg.result, "INDEX's column_num")) : undefined;
  if (column === undefined) {
    if (rows === 1) [row, column] = [1, row];
    else if (columns === 1) column = 1;
    else return error("#REF!", "INDEX of a range of several rows and columns needs a column_num.");
  }
  if (row === 0 || column === 0) refuse("INDEX of a whole row or column (row_num or column_num 0).");
  if (row < 0 || column < 0) return error("#VALUE!", "INDEX: a row or column number below 0.");
  const cell = array.result[row - 1]?.[column - 1];
  if (!cell) return error("#REF!", "INDEX: the row or column is outside the array.");
  // INDEX answers a reference: an empty cell stays empty to a comparison (INDEX(...)="" is TRUE) and shows 0.
  if (cell.blank) return [[{ value: "", blank: true }]];
  return [[{ value: cell.value, errorMessage: cell.errorMessage, valueFormat: cell.valueFormat }]];
}

/**
 * Whether a cell meets a criterion of COUNTIFS or AVERAGEIFS. The stand-in takes a criterion that is a number, a
 * logical value or text to equal (without case); text starting with an operator or holding a wildcard is refused.
 */
function meets(cell: Cell, criterion: Cell): boolean {
  if (typeof criterion.value === "string" && /^[<>=]|[*?~]/.test(criterion.value))
    refuse(`a criterion with an operator or a wildcard ("${criterion.value}").`);
  if (isError(cell) || cell.blank || cell.value === "") return false;
  return typeof cell.value === typeof criterion.value && compare(cell, criterion) === 0;
}

/** Each cell's position (flat) that meets every (range, criterion) pair; the ranges must be one size. */
function matching(pairs: readonly Argument[], rows: number, columns: number, name: string): boolean[] {
  if (pairs.length === 0 || pairs.length % 2 !== 0)
    refuse(`${name} without criteria_range and criteria pairs.`);
  const met = Array<boolean>(rows * columns).fill(true);
  for (let i = 0; i < pairs.length; i += 2) {
    const range = (pairs[i] as Argument).result;
    if (range.length !== rows || range.some((row) => row.length !== columns))
      throw new ErrorValue({ value: "#VALUE!", errorMessage: `${name}: every range must be the same size.` });
    const criterion = scalar((pairs[i + 1] as Argument).result, `${name}'s criteria`);
    range.flat().forEach((cell, at) => {
      if (!meets(cell, criterion)) met[at] = false;
    });
  }
  return met;
}

function countifs(args: readonly Argument[]): Result {
  const first = args[0]?.result ?? [[]];
  const met = matching(args, first.length, first[0]?.length ?? 0, "COUNTIFS");
  return single(met.filter(Boolean).length);
}

function averageifs(args: readonly Argument[]): Result {
  const [average, ...pairs] = args;
  const cells = average?.result ?? [[]];
  const met = matching(pairs, cells.length, cells[0]?.length ?? 0, "AVERAGEIFS");
  const numbers = cells.flat().flatMap((cell, at) => {
    if (!met[at]) return [];
    throwIfError(cell);
    return typeof cell.value === "number" ? [cell.value] : [];
  });
  if (numbers.length === 0) return error("#DIV/0!", "AVERAGEIFS: no cell meets every criterion.");
  return single(numbers.reduce((sum, value) => sum + value, 0) / numbers.length);
}

type Implementation = (args: readonly Argument[]) => Result;

const FUNCTIONS: Readonly<Record<string, Implementation>> = {
  NA: () => error("#N/A"),
  IF: ([condition, then, otherwise]) => {
    if (!condition) return error("#VALUE!", "IF takes a logical test.");
    const chosen = truthOf(scalar(condition.result, "IF's logical_test")) ? then : otherwise;
    if (!chosen) return single(chosen === then);
    // An omitted then or else (a comma with nothing after it) is 0.
    return chosen.omitted ? single(0) : chosen.result;
  },
  COUNT: (args) => single(numbersOf(args, true).length),
  AVERAGE: (args) => {
    const numbers = numbersOf(args);
    if (numbers.length === 0) return error("#DIV/0!", "AVERAGE: no numbers.");
    return single(numbers.reduce((sum, value) => sum + value, 0) / numbers.length);
  },
  MIN: (args) => {
    const numbers = numbersOf(args);
    return single(numbers.length === 0 ? 0 : Math.min(...numbers));
  },
  MAX: (args) => {
    const numbers = numbersOf(args);
    return single(numbers.length === 0 ? 0 : Math.max(...numbers));
  },
  EOMONTH: ([start, months]) => {
    if (!start || !months) return error("#VALUE!", "EOMONTH takes a start_date and months.");
    return eomonth(scalar(start.result, "EOMONTH's start_date"), scalar(months.result, "EOMONTH's months"));
  },
  INDEX: index,
  MATCH: match,
  COUNTIFS: countifs,
  AVERAGEIFS: averageifs,
};

export const isWorksheetFunction = (name: string): boolean => name in FUNCTIONS;

/** Calls a worksheet function by its name (upper case) with its evaluated arguments. */
export function callWorksheetFunction(name: string, args: readonly Argument[]): Result {
  const implementation = FUNCTIONS[name];
  if (!implementation) return error("#NAME?", `There is no function named ${name}.`);
  try {
    return implementation(args);
  } catch (thrown) {
    if (thrown instanceof ErrorValue) return [[thrown.cell]];
    throw thrown;
  }
}
