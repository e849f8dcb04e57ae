/**
 * The columns a spilling function keeps (RENT.SURVEY's and RENT.UNITS' `columns`, RENT.MARKETS' and
 * RENT.PROPERTIES' fields) are named in the one vocabulary: a column's name or a word the contract gives it.
 */
import { selectColumns } from "../../src/functions/shape/spill";
import { shapeTable } from "../../src/tables/tableData";

// A survey's columns: the survey names its rent avg_rent, as the property export does.
const survey = shapeTable(
  ["property_name", "avg_rent", "leased_percent", "advertised_occupancy_percent"],
  [["Oak Park", 1850, 0.94, 0.95]],
);

it("keeps a column asked for by a synonym, under its own name", () => {
  const kept = selectColumns(survey, ["property_name", "asking_rent"], "columns");
  expect(kept.columns.map((column) => column.field)).toEqual(["property_name", "avg_rent"]);
  expect(kept.rows).toEqual([["Oak Park", 1850]]);
});

it("refuses a word that names two columns with what each means, and suggests over names and synonyms", () => {
  expect(() => selectColumns(survey, ["occupancy"], "columns")).toThrow(
    '"occupancy" names 2 fields: "leased_percent" (leased occupancy: the share of units under lease, the occupancy the narrative reports) or "advertised_occupancy_percent" (advertised occupancy: the share of units not advertised as available). Name one.',
  );
  expect(() => selectColumns(survey, ["askng_rent"], "columns")).toThrow(
    'columns: there is no column "askng_rent". Did you mean "avg_rent"?',
  );
});
