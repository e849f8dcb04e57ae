/**
 * The name/value options of RENT.PROPERTIES and RENT.LOOKUP that are members of their requests (see
 * contractOptions.ts), and the add-in's own bounds on how many rows they return. Their help text names these
 * (scripts/functionHelp.ts), so this module imports nothing that needs a host.
 */
import { RECORD_FIELDS } from "../../api/recordFields";
import { optionMembers } from "./contractOptions";
import { PROPERTY_FILTER_OPTIONS } from "./propertyFilters";

/**
 * RENT.PROPERTIES' options beyond the property filters: the property search body's own members, less those the add-in fills itself: the account (the `account` option), the
 * area (the `area` argument) and the paging.
 */
export const SEARCH_OPTION_MEMBERS = optionMembers("searchProperties", [
  ...(RECORD_FIELDS.PropertyFilters ?? []).map(([name]) => name),
  "account_id",
  "geo_boundary_ids",
  "geometry",
  "page",
  "per_page",
]);
/** Most rows RENT.PROPERTIES returns by default, and at most: each page is a request and counts toward quota. */
export const PROPERTIES_DEFAULT_MAX = 500;
export const PROPERTIES_CAP = 5000;
/** Most ids RENT.LOOKUP returns by default, and at most. */
export const LOOKUP_DEFAULT_MAX = 1000;
export const LOOKUP_CAP = 10_000;

/**
 * RENT.LOOKUP's options: the lookup's query parameters, less those the add-in fills itself (the account, from
 * the `account` option; the paging) and the contract's aliases of latitude and longitude.
 */
export const LOOKUP_OPTION_MEMBERS = optionMembers("lookupProperties", [
  "account_id",
  "lat",
  "lng",
  "page",
  "per_page",
]);

/** Every option RENT.PROPERTIES takes. */
export const PROPERTIES_OPTIONS: readonly string[] = [
  ...SEARCH_OPTION_MEMBERS.map((member) => member.name),
  ...PROPERTY_FILTER_OPTIONS,
  "max_results",
  "account",
];
/** Every option RENT.LOOKUP takes. */
export const LOOKUP_OPTIONS: readonly string[] = [
  ...LOOKUP_OPTION_MEMBERS.map((member) => member.name),
  "max_results",
  "account",
];
