import type { Dataset } from "../data/dataset";
import type { PropertyCore } from "../data/properties";
import { listingCount, unitsOfProperty } from "../data/units";
import type { ReportType } from "./jobStore";

/**
 * The number of rows `exportRowsFor` gives one property over the days `first`..`last`, found
 * without building a row, so a job over the row limit fails before it generates anything.
 */
export function exportRowCount(
  dataset: Dataset,
  reportType: ReportType,
  property: PropertyCore,
  first: number,
  last: number,
): number {
  const days = last - first + 1;
  if (reportType === "property") return days;
  if (property.askingRent === null) return 0;
  if (reportType === "floorplans") return unitsOfProperty(dataset, property).plans.length * days;
  return listingCount(dataset, property, first, last);
}
