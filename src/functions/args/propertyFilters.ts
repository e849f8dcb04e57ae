/** Property attribute filters shared by RENT.MARKET, RENT.MARKETS and RENT.PROPERTIES options. */
import { propertyClassValues, unifiedStatusValues, type components } from "../../api/schema";
import type { OptionValues } from "./options";
import { isBlank, readChoice, readInteger, readList } from "./scalars";

const RANGE_FILTERS = [
  "unit_count_gte",
  "unit_count_lte",
  "number_of_stories_gte",
  "number_of_stories_lte",
  "year_built_gte",
  "year_built_lte",
] as const;

export const PROPERTY_FILTER_OPTIONS = ["unified_status", "property_class", ...RANGE_FILTERS] as const;

export interface PropertyFilters {
  "unified_status[]"?: components["schemas"]["UnifiedStatus"][];
  property_class?: components["schemas"]["PropertyClass"][];
  unit_count_gte?: number;
  unit_count_lte?: number;
  number_of_stories_gte?: number;
  number_of_stories_lte?: number;
  year_built_gte?: number;
  year_built_lte?: number;
}

/** The property filters among `options`, in the contract's names; undefined when none is given. */
export function readPropertyFilters(options: OptionValues): PropertyFilters | undefined {
  const filters: PropertyFilters = {};
  const statuses = readList(options.get("unified_status"), "unified_status", (item, argument) =>
    readChoice(item, argument, unifiedStatusValues),
  );
  if (statuses.length > 0) filters["unified_status[]"] = statuses;
  const classes = readList(options.get("property_class"), "property_class", (item, argument) =>
    readChoice(item, argument, propertyClassValues),
  );
  if (classes.length > 0) filters.property_class = classes;
  for (const name of RANGE_FILTERS) {
    const value = options.get(name);
    if (!isBlank(value)) filters[name] = readInteger(value, name, 0, 1_000_000);
  }
  return Object.keys(filters).length > 0 ? filters : undefined;
}
