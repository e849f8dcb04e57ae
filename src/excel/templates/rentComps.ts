/**
 * Rent comps: a subject property against its comp set. Inputs: the comp set id and the subject's property id.
 * Below them, the subject's figures beside the comp set's average (rent, size, rent per square foot, concession
 * and leased percents, each a market survey column) with the difference in dollars and in percent; the subject's
 * concessions; then the TruComp differentials of the comps' TruComp units averaged by bedroom count. Every figure
 * is a plain Excel formula (INDEX/MATCH, AVERAGEIFS) over two spills further down, the comp set's market survey
 * and its units, each a RENT formula that refers to the comp set id, so the sheet follows its inputs.
 */
import { cellAddress, columnLetters } from "../a1";
import { NUMBER_FORMAT_BY_KIND, numberFormatForField } from "../../tables/columnKinds";
import type { SheetTemplate, TemplateCell } from "./sheetTemplate";

/** The market survey's columns the template reads; `property_id` first (the subject is looked up by it). */
export const RENT_COMPS_SURVEY_COLUMNS = [
  "property_id",
  "property_name",
  "subject_property",
  "avg_rent",
  "avg_sq_ft",
  "avg_rent_per_sq_ft",
  "concession_percentage",
  "leased_percent",
  "concessions",
] as const;

/** The survey columns compared, subject against comp average (any numeric survey column may be typed over). */
export const RENT_COMPS_METRICS = [
  "avg_rent",
  "avg_sq_ft",
  "avg_rent_per_sq_ft",
  "concession_percentage",
  "leased_percent",
] as const;

/** The unit fields the TruComp block reads, in the order the units spill shows them. */
export const RENT_COMPS_UNIT_COLUMNS = [
  "property_id",
  "property_name",
  "unit_name",
  "bedroom_count",
  "sq_ft",
  "min_rent",
  "is_trucomp",
  "trucomp_rent_differential",
  "trucomp_sq_ft_differential",
  "trucomp_rent_per_sq_ft_differential",
] as const;

export const TRUCOMP_DIFFERENTIALS = [
  "trucomp_rent_differential",
  "trucomp_sq_ft_differential",
  "trucomp_rent_per_sq_ft_differential",
] as const;

/** Bedroom counts the TruComp block averages (studio to four bedrooms, as the contract's unit mixes go). */
export const TRUCOMP_BEDROOMS = [0, 1, 2, 3, 4] as const;

/** The label of the survey's last row (src/tables/compSetTables.ts). */
const COMP_AVERAGE = "Comp average";

export interface RentCompsInputs {
  readonly compSetId: number;
  readonly subjectId: number;
  /** How many properties the comp set has: the survey spills one row per property and a comp average row. */
  readonly propertyCount: number;
}

const COMP_SET_CELL = "$B$4";
const SUBJECT_CELL = "$B$5";
const COMPARISON_ROW = 6;
/** Rows kept below the survey's spill beyond its own length: room for a few properties more, and air. */
const SURVEY_MARGIN = 6;
/**
 * Rows the TruComp block reads of the units spill (the last spill on the sheet, so it may grow freely): a comp
 * set's available units on one day, with room to spare. A spill that runs past them is named in the block's
 * header row rather than averaged short.
 */
export const UNIT_ROWS = 2000;

const absolute = (row: number, column: number) => `$${columnLetters(column)}$${row + 1}`;
const rangeOf = (fromRow: number, fromColumn: number, toRow: number, toColumn: number) =>
  `${absolute(fromRow, fromColumn)}:${absolute(toRow, toColumn)}`;

export interface RentCompsLayout {
  readonly surveyRow: number;
  readonly unitsRow: number;
  readonly lastSurveyRow: number;
}

export function rentCompsLayout(propertyCount: number): RentCompsLayout {
  const trucompRow = COMPARISON_ROW + RENT_COMPS_METRICS.length + 4;
  const surveyRow = trucompRow + TRUCOMP_BEDROOMS.length + 4;
  const lastSurveyRow = surveyRow + 1 + propertyCount + SURVEY_MARGIN;
  return { surveyRow, unitsRow: lastSurveyRow + 3, lastSurveyRow };
}

export function rentComps(inputs: RentCompsInputs): SheetTemplate {
  const { surveyRow, unitsRow, lastSurveyRow } = rentCompsLayout(inputs.propertyCount);
  const lastSurveyColumn = RENT_COMPS_SURVEY_COLUMNS.length - 1;
  const surveyHeader = rangeOf(surveyRow, 0, surveyRow, lastSurveyColumn);
  const surveyBody = rangeOf(surveyRow + 1, 0, lastSurveyRow, lastSurveyColumn);
  const surveyColumn = (name: (typeof RENT_COMPS_SURVEY_COLUMNS)[number]) => {
    const column = RENT_COMPS_SURVEY_COLUMNS.indexOf(name);
    return rangeOf(surveyRow + 1, column, lastSurveyRow, column);
  };
  const subjectRow = `MATCH(${SUBJECT_CELL}, ${surveyColumn("property_id")}, 0)`;
  const averageRow = `MATCH("${COMP_AVERAGE}", ${surveyColumn("property_name")}, 0)`;

  const cells: TemplateCell[] = [
    { at: "A1", entry: "Rent comps" },
    {
      at: "A2",
      entry:
        "Change the comp set id or the subject's property id; a metric in column A can be any market survey column. Every figure is a formula over the survey and the units below.",
    },
    { at: "A4", entry: "comp set id" },
    { at: "B4", entry: inputs.compSetId },
    { at: "A5", entry: "subject property id" },
    { at: "B5", entry: inputs.subjectId },
    { at: cellAddress(COMPARISON_ROW, 0), entry: "metric" },
    { at: cellAddress(COMPARISON_ROW, 1), entry: "subject" },
    { at: cellAddress(COMPARISON_ROW, 2), entry: "comp average" },
    { at: cellAddress(COMPARISON_ROW, 3), entry: "difference" },
    { at: cellAddress(COMPARISON_ROW, 4), entry: "difference %" },
  ];
  RENT_COMPS_METRICS.forEach((metric, index) => {
    const row = COMPARISON_ROW + 1 + index;
    const metricColumn = `MATCH($A${row + 1}, ${surveyHeader}, 0)`;
    const format = numberFormatForField(metric);
    cells.push(
      { at: cellAddress(row, 0), entry: metric },
      {
        at: cellAddress(row, 1),
        entry: `=INDEX(${surveyBody}, ${subjectRow}, ${metricColumn})`,
        numberFormat: format,
      },
      {
        at: cellAddress(row, 2),
        entry: `=INDEX(${surveyBody}, ${averageRow}, ${metricColumn})`,
        numberFormat: format,
      },
      { at: cellAddress(row, 3), entry: `=B${row + 1}-C${row + 1}`, numberFormat: format },
      {
        at: cellAddress(row, 4),
        entry: `=B${row + 1}/C${row + 1}-1`,
        numberFormat: NUMBER_FORMAT_BY_KIND.percent,
      },
    );
  });
  const concessionsRow = COMPARISON_ROW + 1 + RENT_COMPS_METRICS.length;
  const concessions = `INDEX(${surveyColumn("concessions")}, ${subjectRow})`;
  cells.push(
    { at: cellAddress(concessionsRow, 0), entry: "subject's concessions" },
    { at: cellAddress(concessionsRow, 1), entry: `=IF(${concessions}="", "none", ${concessions})` },
  );

  // TruComp differentials: averaged over the comps' TruComp units, by bedroom count and over all of them.
  const trucompRow = concessionsRow + 3;
  const unitColumn = (name: (typeof RENT_COMPS_UNIT_COLUMNS)[number]) => {
    const column = RENT_COMPS_UNIT_COLUMNS.indexOf(name);
    return rangeOf(unitsRow + 1, column, unitsRow + UNIT_ROWS, column);
  };
  const isTrucomp = `${unitColumn("is_trucomp")}, TRUE`;
  const pastRead = cellAddress(unitsRow + UNIT_ROWS + 1, 0);
  cells.push(
    {
      at: cellAddress(trucompRow - 1, 0),
      entry: "TruComp differentials: the comps' TruComp units, averaged",
    },
    {
      at: cellAddress(trucompRow - 1, 4),
      entry: `=IF(${pastRead}="", "", "More units than the ${UNIT_ROWS} rows these averages read: they leave out those past ${pastRead}")`,
    },
    { at: cellAddress(trucompRow, 0), entry: "bedroom_count" },
    { at: cellAddress(trucompRow, 1), entry: "TruComp units" },
  );
  TRUCOMP_DIFFERENTIALS.forEach((field, index) => {
    cells.push({ at: cellAddress(trucompRow, 2 + index), entry: field });
  });
  const groups: (number | "all")[] = [...TRUCOMP_BEDROOMS, "all"];
  groups.forEach((bedrooms, index) => {
    const row = trucompRow + 1 + index;
    const criteria =
      bedrooms === "all" ? isTrucomp : `${isTrucomp}, ${unitColumn("bedroom_count")}, $A${row + 1}`;
    cells.push(
      { at: cellAddress(row, 0), entry: bedrooms },
      {
        at: cellAddress(row, 1),
        entry: `=COUNTIFS(${criteria})`,
        numberFormat: numberFormatForField("unit_count"),
      },
    );
    TRUCOMP_DIFFERENTIALS.forEach((field, fieldIndex) => {
      const column = RENT_COMPS_UNIT_COLUMNS.indexOf(field);
      const values = rangeOf(unitsRow + 1, column, unitsRow + UNIT_ROWS, column);
      cells.push({
        at: cellAddress(row, 2 + fieldIndex),
        // A bedroom count without TruComp units says so instead of AVERAGEIFS's #DIV/0!.
        entry: `=IF($B${row + 1}=0, "none", AVERAGEIFS(${values}, ${criteria}))`,
        numberFormat: numberFormatForField(field),
      });
    });
  });

  cells.push(
    { at: cellAddress(surveyRow - 1, 0), entry: "Market survey" },
    {
      at: cellAddress(surveyRow, 0),
      entry: `=RENT.SURVEY(${COMP_SET_CELL}, "${RENT_COMPS_SURVEY_COLUMNS.join(", ")}")`,
    },
    { at: cellAddress(unitsRow - 1, 0), entry: "Units" },
    {
      at: cellAddress(unitsRow, 0),
      entry: `=RENT.UNITS(${COMP_SET_CELL}, , , , , "columns=${RENT_COMPS_UNIT_COLUMNS.join(", ")}")`,
    },
  );
  // Rent against size, the subject marked, from the survey's rows (the chart module's rent-by-size chart).
  return { sheetName: "Rent comps", cells, charts: [{ at: cellAddress(surveyRow, 0), kind: "rentBySize" }] };
}
