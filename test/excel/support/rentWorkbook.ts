import { MockExcel, type MockCellValue } from "./mockExcel";

/** What the RENT formulas of these tests show: a scalar, or an array that spills. */
export function evaluateRent(formula: string): MockCellValue[][] | undefined {
  const units = /RENT\.UNITS\((\d+)\)/i.exec(formula);
  if (units) {
    const rows = Number(units[1]);
    return [
      ["unit", "rent"],
      ...Array.from({ length: rows }, (_, i): MockCellValue[] => [`U${i + 1}`, 1500 + i]),
    ];
  }
  // A forecast still waiting for the service.
  if (/RENT\.FORECAST/i.test(formula)) return [["#BUSY!"]];
  if (/RENT\.NARRATIVE/i.test(formula)) return [["=text that looks like a formula"]];
  if (/RENT\./i.test(formula)) return [[1850]];
  if (/SUM/i.test(formula)) return [[3]];
  return undefined;
}

/**
 * Two sheets of an underwriting model: RENT formulas (one spilling), formulas that only look like them, and
 * plain values.
 */
export function underwritingWorkbook(evaluate = evaluateRent): MockExcel {
  const excel = new MockExcel({ evaluate });
  excel.addSheet("Model");
  excel.addSheet("Comps");
  excel.setValues("Model", "A1", [["Property", "Rent"]]);
  excel.setFormula("Model", "B2", '=RENT.PROPERTY(123,"asking_rent")');
  excel.setFormula("Model", "B3", '=IFERROR(rent.property(456,"asking_rent"),0)');
  excel.setFormula("Model", "C2", "=SUM(A5:A6)");
  excel.setFormula("Model", "C3", "=MYRENT.PROPERTY(1)");
  excel.setValues("Model", "D2", [["RENT.PROPERTY(1) as text"]]);
  excel.setFormula("Comps", "A1", "=RENT.UNITS(3)");
  excel.setFormula("Comps", "E1", '=RENT.MARKET(5,"rent_avg_t30")');
  return excel;
}
