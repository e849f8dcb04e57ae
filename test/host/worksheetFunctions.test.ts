/**
 * The stand-in's worksheet functions and operators (test/host/page/excelFunctions.ts) answer as Microsoft's
 * function reference says, and a formula that reads a spill calculates again when the spill changes, grows or
 * shrinks, as the workbook templates' plain formulas need.
 */
import { Calculator } from "./page/calculator";
import { HOST_PROFILES } from "./profiles";
import { Workbook } from "./workbook/workbook";
import { parseCellAddress } from "../../src/excel/a1";

let rows: unknown[][] = [];

function host() {
  const workbook = new Workbook();
  const calculator = new Calculator(
    workbook,
    "RENT",
    [{ id: "ROWS", name: "ROWS", parameters: [{ name: "count" }] }],
    HOST_PROFILES["m365-windows"],
  );
  // A spill of a header and `count` rows of [month, rent, flag] (the rows a test sets).
  calculator.registerFunction("ROWS", async (count) => [
    ["month", "rent", "flag"],
    ...rows.slice(0, Number(count)),
  ]);
  const calculated = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    while (calculator.calculatingCount() > 0) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  const enter = (address: string, input: string | number | boolean) => {
    const { row, column } = parseCellAddress(address);
    workbook.enter("Sheet1", row, column, input);
  };
  const at = (address: string) => {
    const { row, column } = parseCellAddress(address);
    return workbook.sheet("Sheet1").cell(row, column);
  };
  const value = (address: string) => at(address)?.value;
  return { workbook, calculated, enter, at, value };
}

beforeEach(() => {
  rows = [
    [46054, 1500, true],
    [46082, 1520, false],
    [46113, 1540, true],
  ];
});

/** Enters each formula in column A from A1 and returns what each shows. */
async function results(formulas: string[]): Promise<unknown[]> {
  const { enter, calculated, value } = host();
  formulas.forEach((formula, index) => enter(`A${index + 1}`, formula));
  await calculated();
  return formulas.map((_, index) => value(`A${index + 1}`));
}

it("calculates operators with Excel's precedence, & as text, comparisons and #DIV/0!", async () => {
  expect(
    await results(["=1+2*3", "=(1+2)*3", "=-2*3+10/4", '="a"&1&TRUE', "=2<10", '="b">"A"', "=1/0"]),
  ).toEqual([7, 9, -3.5, "a1TRUE", true, true, "#DIV/0!"]);
});

it("reads a spill with COUNT, AVERAGE, MIN, MAX, INDEX, MATCH, COUNTIFS, AVERAGEIFS, IF, NA and EOMONTH", async () => {
  const { enter, calculated, value, at } = host();
  enter("E1", "=RENT.ROWS(3)");
  const formulas: Record<string, string> = {
    A1: "=COUNT(E2:E5)",
    A2: "=AVERAGE(F2:F5)",
    A3: "=MIN(E2:E5)",
    A4: "=EOMONTH(MAX(E2:E5),0)",
    A5: '=INDEX(E1:G4, MATCH(1520, F1:F4, 0), MATCH("flag", E1:G1, 0))',
    A6: "=COUNTIFS(G2:G5, TRUE)",
    A7: "=AVERAGEIFS(F2:F5, G2:G5, TRUE)",
    A8: "=IF(COUNT(E2:E5)=3, AVERAGE(F2:F4), NA())",
    A9: "=MATCH(9, F1:F4, 0)",
    A10: "=AVERAGEIFS(F2:F5, G2:G5, 7)",
    A11: "=A2*2*12",
    A12: '=COUNTIFS(G2:G5, ">1")',
    A13: '=IF(INDEX(H1:H4, 2)="", "none", INDEX(H1:H4, 2))',
    A14: "=INDEX(H1:H4, 2)",
  };
  for (const [address, formula] of Object.entries(formulas)) enter(address, formula);
  await calculated();
  expect(value("A1")).toBe(3);
  expect(value("A2")).toBe(1520);
  expect(value("A3")).toBe(46054);
  // The last day of the month of serial 46113 (2026-04-01) is 2026-04-30, serial 46142.
  expect(value("A4")).toBe(46142);
  expect(value("A5")).toBe(false);
  expect(value("A6")).toBe(2);
  expect(value("A7")).toBe(1520);
  expect(value("A8")).toBe(1520);
  expect(value("A9")).toBe("#N/A");
  expect(value("A10")).toBe("#DIV/0!");
  expect(value("A11")).toBe(1520 * 24);
  // A criterion with an operator is past what the stand-in calculates: it says so rather than answer.
  expect(value("A12")).toBe("#VALUE!");
  expect(at("A12")?.errorMessage).toMatch(/does not calculate/);
  // INDEX of an empty cell is empty to a comparison and shows 0.
  expect([value("A13"), value("A14")]).toEqual(["none", 0]);
});

it("calculates a formula again when the spill it reads changes, grows and shrinks", async () => {
  const { enter, calculated, value } = host();
  enter("B1", 3);
  enter("E1", "=RENT.ROWS(B1)");
  enter("A1", "=COUNT(F2:F13)");
  enter("A2", "=IF(COUNT(F2:F13)=3, AVERAGE(F2:F13), NA())");
  // Rows the shrunk spill no longer reaches: the new spill does not meet them, the old one did.
  enter("A3", "=COUNT(F4:F13)");
  await calculated();
  expect([value("A1"), value("A2"), value("A3")]).toEqual([3, 1520, 1]);
  enter("B1", 2);
  await calculated();
  expect([value("A1"), value("A2"), value("A3")]).toEqual([2, "#N/A", 0]);
  rows = [...rows, [46143, 1600, true]];
  enter("B1", 4);
  await calculated();
  expect(value("A1")).toBe(4);
});
