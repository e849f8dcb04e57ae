/**
 * Property forecast: a property id, a start and an end date and an interval as inputs; the property's name,
 * rent and occupancy today, and its forecast spilled below, every formula referring to the inputs.
 */
import { NUMBER_FORMAT_BY_KIND, numberFormatForField } from "../../tables/columnKinds";
import { isoDateToSerial } from "../../tables/excelDates";
import type { SheetTemplate, TemplateCell } from "./sheetTemplate";

export const PROPERTY_FORECAST_FIELDS = ["rent_growth_rate_yoy", "occupancy_percent"] as const;

export interface PropertyForecastInputs {
  readonly propertyId: number;
  /** The forecast starts at this month's first day and runs two years. */
  readonly today: Date;
}

/** Quarters over two years, plus the header: the rows the forecast's formats cover. */
const FORECAST_ROWS = 12;
const FORECAST_ROW = 13;

function monthStart(date: Date, yearsAhead: number): number {
  const iso = new Date(Date.UTC(date.getUTCFullYear() + yearsAhead, date.getUTCMonth(), 1)).toISOString();
  return isoDateToSerial(iso.slice(0, 10)) as number;
}

export function propertyForecast(inputs: PropertyForecastInputs): SheetTemplate {
  const dateFormat = numberFormatForField("date");
  const fields = PROPERTY_FORECAST_FIELDS.join(", ");
  const spillEnd = FORECAST_ROW + FORECAST_ROWS;
  const cells: TemplateCell[] = [
    { at: "A1", entry: "Property forecast" },
    { at: "A2", entry: "Change the property id, the dates or the interval (month, quarter or year)." },
    { at: "A4", entry: "property id" },
    { at: "B4", entry: inputs.propertyId },
    { at: "A5", entry: "start" },
    { at: "B5", entry: monthStart(inputs.today, 0), numberFormat: dateFormat },
    { at: "A6", entry: "end" },
    { at: "B6", entry: monthStart(inputs.today, 2), numberFormat: dateFormat },
    { at: "A7", entry: "interval" },
    { at: "B7", entry: "quarter" },
    { at: "A9", entry: "property_name" },
    { at: "B9", entry: "=RENT.PROPERTY($B$4, A9)" },
    { at: "A10", entry: "asking_rent" },
    { at: "B10", entry: "=RENT.PROPERTY($B$4, A10)", numberFormat: numberFormatForField("asking_rent") },
    { at: "A11", entry: "leased_percent" },
    { at: "B11", entry: "=RENT.PROPERTY($B$4, A11)", numberFormat: numberFormatForField("leased_percent") },
    { at: `A${FORECAST_ROW - 1}`, entry: "Forecast (rent growth falls back to the submarket's)" },
    {
      at: `A${FORECAST_ROW}`,
      entry: `=RENT.FORECAST($B$4, "${fields}", "avg", $B$7, $B$5, $B$6, FALSE, TRUE)`,
    },
    { at: `A${FORECAST_ROW + 1}:A${spillEnd}`, numberFormat: dateFormat },
  ];
  // After the fields, a quarter's or a year's spill says which months it covers: covers_from, covers_to, months_covered.
  const columnFormats = [
    ...PROPERTY_FORECAST_FIELDS.map(numberFormatForField),
    dateFormat,
    dateFormat,
    NUMBER_FORMAT_BY_KIND.integer,
  ];
  columnFormats.forEach((numberFormat, index) => {
    const column = String.fromCharCode("B".charCodeAt(0) + index);
    cells.push({ at: `${column}${FORECAST_ROW + 1}:${column}${spillEnd}`, numberFormat });
  });
  return { sheetName: "Property forecast", cells };
}
