/**
 * RENT.UNITS' name/value options: the add-in's names for the units list's filters (min_/max_ for the service's
 * _gte/_lte), and `columns`. Its help text lists them from here (scripts/functionHelp.ts).
 */
export const UNIT_OPTIONS = [
  "property_ids",
  "min_sq_ft",
  "max_sq_ft",
  "available_from",
  "available_to",
  "min_year_built",
  "max_year_built",
  "unit_styles",
  "columns",
] as const;
