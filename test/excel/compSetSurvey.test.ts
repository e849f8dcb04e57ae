/** The comp-set template says when its block shows fewer properties than the comp set has. */
import { compSetSurvey } from "../../src/excel/templates/compSetSurvey";

const entries = (propertyIds: number[], propertyCount: number) =>
  compSetSurvey({ compSetId: 7, propertyIds, propertyCount }).cells.flatMap((cell) =>
    typeof cell.entry === "string" ? [cell.entry] : [],
  );

it('says "5 of 8 properties shown" under a block of five from a comp set of eight, nothing when all are', () => {
  const notice = (ids: number[], count: number) =>
    entries(ids, count).filter((entry) => entry.includes("properties shown"));
  expect(notice([1, 2, 3, 4, 5], 8)).toEqual(["5 of 8 properties shown"]);
  expect(notice([1, 2, 3], 3)).toEqual([]);
});

it("puts the notice under the block, clear of the survey's spill", () => {
  const { cells } = compSetSurvey({ compSetId: 7, propertyIds: [1, 2, 3, 4, 5], propertyCount: 8 });
  const notice = cells.find((cell) => String(cell.entry).includes("properties shown"));
  const survey = cells.find((cell) => String(cell.entry).startsWith("=RENT.SURVEY"));
  expect(notice?.at).toBe("A13");
  expect(survey?.at).toBe("A15");
});

it("has each block formula read its own row's id and its own column's field, each title right above its formula", () => {
  const { cells } = compSetSurvey({ compSetId: 7, propertyIds: [101, 102, 103], propertyCount: 5 });
  const entryAt = new Map(cells.map((cell) => [cell.at, cell.entry]));
  const formulas = cells.filter((cell) => String(cell.entry).startsWith("=RENT.PROPERTY("));
  expect(formulas.length).toBeGreaterThan(3);
  for (const { at, entry } of formulas) {
    const [, column, row] = /^([A-Z]+)(\d+)$/.exec(at) ?? [];
    const [, idRow, fieldColumn, fieldRow] =
      /^=RENT\.PROPERTY\(\$A(\d+), ([A-Z]+)\$(\d+)\)$/.exec(String(entry)) ?? [];
    expect([idRow, fieldColumn]).toEqual([row, column]);
    expect(entryAt.get(`A${row}`)).toEqual(expect.any(Number));
    // The field row: the field's name above its column, "property_id" above the ids.
    expect(entryAt.get(`${column}${fieldRow}`)).toMatch(/^[a-z_0-9]+$/);
    expect(entryAt.get(`A${fieldRow}`)).toBe("property_id");
  }
  const below = (title: string) => {
    const [, column, row] =
      /^([A-Z]+)(\d+)$/.exec(cells.find((cell) => cell.entry === title)?.at ?? "") ?? [];
    return entryAt.get(`${column}${Number(row) + 1}`);
  };
  expect(below("Market survey")).toMatch(/^=RENT\.SURVEY\(/);
  expect(below("Units")).toMatch(/^=RENT\.UNITS\(/);
});
