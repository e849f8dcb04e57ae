/**
 * The formulas the host page understands: a call of a namespaced custom function (`=RENT.PROPERTY(...)`), of
 * DATE or of the few worksheet functions in excelFunctions.ts, whose arguments are numbers, text in double
 * quotes, TRUE/FALSE, cell and range references (`A1`, `$B$2:C9`, `Sheet2!A1`, `'My sheet'!A1:B2`), nested
 * calls, or nothing (an omitted argument); a field of an entity (`=A1.asking_rent`, `=A1.[asking rent]`), alone
 * or as an argument; and these joined by Excel's operators with Excel's precedence (lowest first): comparison
 * (`= <> < > <= >=`), `&`, `+ -`, `* /`, then a leading `-`.
 * Anything else is not a formula this stand-in calculates; the cell shows #NAME? with the reason.
 */
import type { CellRect } from "../../../src/excel/a1";
import { parseCellAddress } from "../../../src/excel/a1";

export type Expression =
  | { kind: "literal"; value: string | number | boolean }
  | { kind: "omitted" }
  | { kind: "reference"; sheet: string | undefined; rect: CellRect }
  /** A field of the entity in a cell: `A1.asking_rent`, or `A1.[Field name]` for a name with spaces. */
  | { kind: "field"; reference: { sheet: string | undefined; rect: CellRect }; field: string }
  | { kind: "call"; name: string; args: Expression[] }
  | { kind: "operator"; operator: BinaryOperator; left: Expression; right: Expression }
  | { kind: "negation"; operand: Expression };

export type BinaryOperator = "=" | "<>" | "<" | ">" | "<=" | ">=" | "&" | "+" | "-" | "*" | "/";

/** Operators by precedence, lowest first (Microsoft, "Calculation operators and precedence in Excel"). */
const OPERATOR_LEVELS: readonly (readonly BinaryOperator[])[] = [
  ["<>", "<=", ">=", "=", "<", ">"],
  ["&"],
  ["+", "-"],
  ["*", "/"],
];

export class FormulaSyntaxError extends Error {}

const REFERENCE =
  /^(?:(?:'((?:[^']|'')+)'|([A-Za-z_][\w.]*))!)?(\$?[A-Za-z]{1,3}\$?\d{1,7})(?::(\$?[A-Za-z]{1,3}\$?\d{1,7}))?/;
const NUMBER = /^(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/;
const NAME = /^[A-Za-z_][\w.]*(?=\s*\()/;
const STRING = /^"((?:[^"]|"")*)"/;
const FIELD = /^\.(?:\[([^\]]+)\]|([A-Za-z_][\w]*))/;

class Parser {
  private position = 0;

  constructor(private readonly text: string) {}

  parse(): Expression {
    const expression = this.expression();
    this.skipSpaces();
    if (this.position < this.text.length) this.fail(`unexpected "${this.text.slice(this.position)}"`);
    return expression;
  }

  private rest(): string {
    return this.text.slice(this.position);
  }

  private skipSpaces(): void {
    while (this.text[this.position] === " ") this.position++;
  }

  private fail(reason: string): never {
    throw new FormulaSyntaxError(`The host stand-in cannot read this formula: ${reason}.`);
  }

  private take(pattern: RegExp): RegExpExecArray | undefined {
    const match = pattern.exec(this.rest());
    if (!match) return undefined;
    this.position += match[0].length;
    return match;
  }

  /** Operands joined by the operators of `level` and of the levels above it, left to right. */
  private expression(level = 0): Expression {
    if (level === OPERATOR_LEVELS.length) return this.operand();
    let left = this.expression(level + 1);
    for (;;) {
      this.skipSpaces();
      const operator = (OPERATOR_LEVELS[level] ?? []).find((candidate) => this.rest().startsWith(candidate));
      if (!operator) return left;
      this.position += operator.length;
      left = { kind: "operator", operator, left, right: this.expression(level + 1) };
    }
  }

  private operand(): Expression {
    this.skipSpaces();
    if (this.take(/^-/)) return { kind: "negation", operand: this.operand() };
    if (this.take(/^\(/)) {
      const inner = this.expression();
      this.skipSpaces();
      if (!this.take(/^\)/)) this.fail(`expected ")" at "${this.rest() || "the end"}"`);
      return inner;
    }
    const name = this.take(NAME);
    if (name) return this.call(name[0].toUpperCase());
    const text = this.take(STRING);
    if (text) return { kind: "literal", value: (text[1] ?? "").replace(/""/g, '"') };
    const bool = this.take(/^(TRUE|FALSE)\b/i);
    if (bool) return { kind: "literal", value: bool[0].toUpperCase() === "TRUE" };
    const reference = this.take(REFERENCE);
    if (reference) {
      const referenced = this.reference(reference);
      const field = this.take(FIELD);
      if (!field) return referenced;
      return { kind: "field", reference: referenced, field: field[1] ?? field[2] ?? "" };
    }
    const number = this.take(NUMBER);
    if (number) return { kind: "literal", value: Number(number[0]) };
    return this.fail(`expected a value at "${this.rest() || "the end"}"`);
  }

  private call(name: string): Expression {
    this.skipSpaces();
    this.take(/^\(/);
    const args: Expression[] = [];
    this.skipSpaces();
    if (this.take(/^\)/)) return { kind: "call", name, args };
    for (;;) {
      this.skipSpaces();
      const next = this.text[this.position];
      args.push(next === "," || next === ")" ? { kind: "omitted" } : this.expression());
      this.skipSpaces();
      if (this.take(/^,/)) continue;
      if (this.take(/^\)/)) return { kind: "call", name, args };
      return this.fail(`expected "," or ")" at "${this.rest() || "the end"}"`);
    }
  }

  private reference(match: RegExpExecArray): Extract<Expression, { kind: "reference" }> {
    const sheet = match[1]?.replace(/''/g, "'") ?? match[2];
    const first = parseCellAddress((match[3] ?? "").replace(/\$/g, ""));
    const last = match[4] ? parseCellAddress(match[4].replace(/\$/g, "")) : first;
    const row = Math.min(first.row, last.row);
    const column = Math.min(first.column, last.column);
    return {
      kind: "reference",
      sheet,
      rect: {
        row,
        column,
        rowCount: Math.abs(last.row - first.row) + 1,
        columnCount: Math.abs(last.column - first.column) + 1,
      },
    };
  }
}

/** Parses the text after "=". */
export function parseFormula(formula: string): Expression {
  return new Parser(formula.replace(/^=/, "").trim()).parse();
}

/** Every reference in an expression: the cells a formula depends on. */
export function referencesOf(expression: Expression): Extract<Expression, { kind: "reference" }>[] {
  if (expression.kind === "reference") return [expression];
  if (expression.kind === "field") return [{ kind: "reference", ...expression.reference }];
  if (expression.kind === "call") return expression.args.flatMap(referencesOf);
  if (expression.kind === "operator")
    return [...referencesOf(expression.left), ...referencesOf(expression.right)];
  if (expression.kind === "negation") return referencesOf(expression.operand);
  return [];
}
