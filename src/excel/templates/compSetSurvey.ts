/**
 * Comp set survey with units: the comp set's id and a few of its properties as inputs; a block of property
 * fields (one RENT.PROPERTY formula per cell, referring to the id and the field name), then the comp set's
 * market survey and its units spilled below, each from a formula that refers to the comp set id.
 */
import { cellAddress, columnLetters } from "../a1";
import { numberFormatForField } from "../../tables/columnKinds";
import type { SheetTemplate, TemplateCell } from "./sheetTemplate";

export const COMP_SET_SURVEY_FIELDS = [
  "property_name",
  "unit_count",
  "year_built",
  "asking_rent",
  "net_effective_rent",
  "leased_percent",
] as const;

export interface CompSetSurveyInputs {
  readonly compSetId: number;
  /** The properties whose fields the block shows (the comp set's first few). */
  readonly propertyIds: readonly number[];
  /** How many properties the comp set has: the survey spills about one row per property. */
  readonly propertyCount: number;
}

const COMP_SET_CELL = "$B$4";
const FIELDS_ROW = 6;
/** Rows kept between spills beyond their own length: a header, a comp average row, and air. */
const SPILL_MARGIN = 4;

export function compSetSurvey(inputs: CompSetSurveyInputs): SheetTemplate {
  const cells: TemplateCell[] = [
    { at: "A1", entry: "Comp set survey" },
    {
      at: "A2",
      entry:
        "Change the comp set id or the property ids; field names in row 7 can be any property field. The market survey below lists every property of the set.",
    },
    { at: "A4", entry: "comp set id" },
    { at: "B4", entry: inputs.compSetId },
    { at: cellAddress(FIELDS_ROW, 0), entry: "property_id" },
  ];
  COMP_SET_SURVEY_FIELDS.forEach((field, index) => {
    cells.push({ at: cellAddress(FIELDS_ROW, index + 1), entry: field });
  });
  inputs.propertyIds.forEach((id, idIndex) => {
    const row = FIELDS_ROW + 1 + idIndex;
    cells.push({ at: cellAddress(row, 0), entry: id });
    COMP_SET_SURVEY_FIELDS.forEach((field, index) => {
      const column = index + 1;
      cells.push({
        at: cellAddress(row, column),
        entry: `=RENT.PROPERTY($A${row + 1}, ${columnLetters(column)}$${FIELDS_ROW + 1})`,
        numberFormat: numberFormatForField(field),
      });
    });
  });
  const shown = inputs.propertyIds.length;
  // The block shows the first few properties: it says so when the comp set has more (the survey below lists
  // them all). Short, as column A is fitted to its cells.
  if (shown < inputs.propertyCount)
    cells.push({
      at: cellAddress(FIELDS_ROW + 1 + shown, 0),
      entry: `${shown} of ${inputs.propertyCount} properties shown`,
    });
  const surveyRow = FIELDS_ROW + shown + 3;
  const unitsRow = surveyRow + 1 + inputs.propertyCount + SPILL_MARGIN;
  cells.push(
    { at: cellAddress(surveyRow - 1, 0), entry: "Market survey" },
    { at: cellAddress(surveyRow, 0), entry: `=RENT.SURVEY(${COMP_SET_CELL})` },
    { at: cellAddress(unitsRow - 1, 0), entry: "Units" },
    { at: cellAddress(unitsRow, 0), entry: `=RENT.UNITS(${COMP_SET_CELL})` },
  );
  return { sheetName: "Comp set survey", cells };
}
