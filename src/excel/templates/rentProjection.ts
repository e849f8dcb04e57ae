/**
 * Five-year rent projection for an underwriting model. Inputs: the property id and its unit count (read from the
 * property's record by a formula a person may type over). The property's monthly forecast in dollars, with its
 * downside and upside, spills below (RENT.FORECAST with use_rent_value, and the submarket's forecast where the
 * property has none); each forward year above it is a row of plain formulas over that year's own 12 months of the
 * spill: the months it covers, the average forecast rent, and gross potential rent = rent x units x 12. A year
 * the forecast does not reach in full shows #N/A for its figures and says how many of its months it has, rather
 * than average fewer months.
 */
import { FORECAST_WINDOW_MONTHS } from "../../api/contractLimits";
import { cellAddress, columnLetters } from "../a1";
import { NUMBER_FORMAT_BY_KIND, numberFormatForField } from "../../tables/columnKinds";
import type { SheetTemplate, TemplateCell } from "./sheetTemplate";

export const PROJECTION_YEARS = 5;
const MONTHS_PER_YEAR = 12;

/** The forecast's fields: rent growth, which use_rent_value turns into forecast rent in dollars, and its bounds. */
export const PROJECTION_FORECAST_FIELDS = [
  "rent_growth_rate_yoy",
  "rent_growth_rate_yoy_downside",
  "rent_growth_rate_yoy_upside",
] as const;

/** The year table's columns, in order. */
export const PROJECTION_COLUMNS = [
  "forward year",
  "covers_from",
  "covers_to",
  "months_covered",
  "forecast rent",
  "forecast rent downside",
  "forecast rent upside",
  "gross potential rent",
  "gross potential rent downside",
  "gross potential rent upside",
  "note",
] as const;

export interface RentProjectionInputs {
  readonly propertyId: number;
}

const PROPERTY_CELL = "$B$4";
const UNITS_CELL = "$B$5";
export const PROJECTION_HEADER_ROW = 8;
/** The monthly forecast's anchor: its header row; its months follow, one a row. */
export const PROJECTION_FORECAST_ROW = PROJECTION_HEADER_ROW + PROJECTION_YEARS + 4;

const column = (name: (typeof PROJECTION_COLUMNS)[number]) => PROJECTION_COLUMNS.indexOf(name);

export function rentProjection(inputs: RentProjectionInputs): SheetTemplate {
  // Forecast rent is rent in dollars: the same unit as the property's asking rent in the contract.
  const rentFormat = numberFormatForField("asking_rent");
  const dateFormat = numberFormatForField("date");
  const cells: TemplateCell[] = [
    { at: "A1", entry: "Five-year rent projection" },
    {
      at: "A2",
      entry:
        "Change the property id, or type a unit count over B5. Each year averages its own 12 months of the monthly forecast below; gross potential rent = rent x units x 12.",
    },
    { at: "A4", entry: "property id" },
    { at: "B4", entry: inputs.propertyId },
    { at: "A5", entry: "units" },
    {
      at: "B5",
      entry: `=RENT.PROPERTY(${PROPERTY_CELL}, "unit_count")`,
      numberFormat: numberFormatForField("unit_count"),
    },
    { at: "A6", entry: "property_name" },
    { at: "B6", entry: `=RENT.PROPERTY(${PROPERTY_CELL}, A6)` },
  ];
  PROJECTION_COLUMNS.forEach((name, index) => {
    cells.push({ at: cellAddress(PROJECTION_HEADER_ROW, index), entry: name });
  });

  const firstMonthRow = PROJECTION_FORECAST_ROW + 1;
  for (let year = 1; year <= PROJECTION_YEARS; year++) {
    const row = PROJECTION_HEADER_ROW + year;
    const at = (name: (typeof PROJECTION_COLUMNS)[number]) => cellAddress(row, column(name));
    const ref = (name: (typeof PROJECTION_COLUMNS)[number]) => `$${columnLetters(column(name))}${row + 1}`;
    // This year's 12 rows of the spill, in a column of it: the dates (A), or a forecast figure (B, C, D).
    const from = firstMonthRow + (year - 1) * MONTHS_PER_YEAR;
    const months = (spillColumn: number) => {
      const letters = columnLetters(spillColumn);
      return `$${letters}$${from + 1}:$${letters}$${from + MONTHS_PER_YEAR}`;
    };
    const covered = ref("months_covered");
    cells.push(
      { at: at("forward year"), entry: `Year ${year}` },
      {
        at: at("covers_from"),
        entry: `=IF(${covered}>0, MIN(${months(0)}), NA())`,
        numberFormat: dateFormat,
      },
      {
        at: at("covers_to"),
        entry: `=IF(${covered}>0, EOMONTH(MAX(${months(0)}), 0), NA())`,
        numberFormat: dateFormat,
      },
      {
        at: at("months_covered"),
        entry: `=COUNT(${months(0)})`,
        numberFormat: NUMBER_FORMAT_BY_KIND.integer,
      },
    );
    const figures = ["forecast rent", "forecast rent downside", "forecast rent upside"] as const;
    const potentials = [
      "gross potential rent",
      "gross potential rent downside",
      "gross potential rent upside",
    ] as const;
    figures.forEach((figure, index) => {
      const values = months(1 + index);
      cells.push(
        {
          at: at(figure),
          // A year is its own 12 months: fewer is no year's figure (#N/A), never a shorter average.
          entry: `=IF(COUNT(${values})=${MONTHS_PER_YEAR}, AVERAGE(${values}), NA())`,
          numberFormat: rentFormat,
        },
        {
          at: at(potentials[index] as (typeof potentials)[number]),
          entry: `=${ref(figure)}*${UNITS_CELL}*${MONTHS_PER_YEAR}`,
          numberFormat: rentFormat,
        },
      );
    });
    cells.push({
      at: at("note"),
      entry: `=IF(${covered}=${MONTHS_PER_YEAR}, "", "the forecast reaches "&${covered}&" of this year's ${MONTHS_PER_YEAR} months")`,
    });
  }

  const lastMonthRow = PROJECTION_FORECAST_ROW + FORECAST_WINDOW_MONTHS;
  cells.push(
    {
      at: cellAddress(PROJECTION_FORECAST_ROW - 1, 0),
      entry: "Monthly forecast rent in dollars (the submarket's where the property has none)",
    },
    {
      at: cellAddress(PROJECTION_FORECAST_ROW, 0),
      entry: `=RENT.FORECAST(${PROPERTY_CELL}, "${PROJECTION_FORECAST_FIELDS.join(", ")}", "avg", "month", , , TRUE, TRUE)`,
    },
    { at: `A${firstMonthRow + 1}:A${lastMonthRow + 1}`, numberFormat: dateFormat },
    { at: `B${firstMonthRow + 1}:D${lastMonthRow + 1}`, numberFormat: rentFormat },
  );
  // The monthly forecast rent: the base line with its downside and upside around it (the chart module's forecast).
  return {
    sheetName: "Rent projection",
    cells,
    charts: [{ at: cellAddress(PROJECTION_FORECAST_ROW, 0), kind: "forecast" }],
  };
}
