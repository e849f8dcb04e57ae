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
