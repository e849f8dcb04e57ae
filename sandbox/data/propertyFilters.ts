import type { operations } from "../../src/api/schema";
import type { PropertyCore } from "./properties";

type SearchBody = NonNullable<operations["searchProperties"]["requestBody"]>["content"]["application/json"];
type LookupQuery = NonNullable<operations["lookupProperties"]["parameters"]["query"]>;
/** Members of a search or lookup that say where to look or which page to answer, not which properties pass. */
type NotFilters = "account_id" | "geo_boundary_ids" | "geometry" | "page" | "per_page";
type LookupOnly = "latitude" | "lat" | "longitude" | "lng" | "radius";

/**
 * Attribute filters shared by property lookup, property search and the property-level filters of explore markets,
 * as the contract types them: the search body's and the lookup query's members (a lookup names one class, a search
 * a list). Every bound is inclusive.
 */
export type PropertyAttributeFilters = Omit<SearchBody, NotFilters | "property_class"> &
  Omit<LookupQuery, NotFilters | LookupOnly | "property_class"> & {
    property_class?: SearchBody["property_class"] | LookupQuery["property_class"];
  };

type Predicate = (property: PropertyCore) => boolean;

/** True when value lies within the optional inclusive bounds (works for numbers and ISO dates). */
function within<T extends number | string>(value: T, low: T | undefined, high: T | undefined): boolean {
  return (low === undefined || value >= low) && (high === undefined || value <= high);
}

function contains(haystack: string, needle: string): boolean {
  return haystack.toLowerCase().includes(needle.toLowerCase());
}

/** One predicate that is true when a property passes every given filter. */
export function propertyPredicate(filters: PropertyAttributeFilters): Predicate {
  const checks: Predicate[] = [];
  const f = filters;
  if (f.city !== undefined) {
    const city = f.city.toLowerCase();
    checks.push((p) => p.city.toLowerCase() === city);
  }
  if (f.state !== undefined) {
    const state = f.state.toUpperCase();
    checks.push((p) => p.state === state);
  }
  if (f.address !== undefined) checks.push((p) => contains(p.address, f.address ?? ""));
  if (f.property_name !== undefined) checks.push((p) => contains(p.name, f.property_name ?? ""));
  if (f.property_url !== undefined) checks.push((p) => contains(p.url, f.property_url ?? ""));
  if (f.property_class !== undefined) {
    const classes = new Set(Array.isArray(f.property_class) ? f.property_class : [f.property_class]);
    checks.push((p) => classes.has(p.propertyClass));
  }
  if (f.unit_count_gte !== undefined || f.unit_count_lte !== undefined) {
    checks.push((p) => within(p.unitCount, f.unit_count_gte, f.unit_count_lte));
  }
  if (f.number_of_stories_gte !== undefined || f.number_of_stories_lte !== undefined) {
    checks.push((p) => within(p.stories, f.number_of_stories_gte, f.number_of_stories_lte));
  }
  if (f.year_built_gte !== undefined || f.year_built_lte !== undefined) {
    checks.push((p) => within(p.yearBuilt, f.year_built_gte, f.year_built_lte));
  }
  const statuses = f["unified_status[]"];
  if (statuses !== undefined) {
    const allowed = new Set(statuses);
    checks.push((p) => allowed.has(p.unifiedStatus));
  }
  if (f.loan_maturity_date_gte !== undefined || f.loan_maturity_date_lte !== undefined) {
    checks.push(
      (p) =>
        p.loanMaturityDate !== null &&
        within(p.loanMaturityDate, f.loan_maturity_date_gte, f.loan_maturity_date_lte),
    );
  }
  const saleChecks: ((sale: NonNullable<PropertyCore["sale"]>) => boolean)[] = [];
  if (f.transaction_cap_rate_gte !== undefined || f.transaction_cap_rate_lte !== undefined) {
    saleChecks.push((sale) => within(sale.capRate, f.transaction_cap_rate_gte, f.transaction_cap_rate_lte));
  }
  if (f.transaction_date_closed_gte !== undefined || f.transaction_date_closed_lte !== undefined) {
    saleChecks.push((sale) =>
      within(sale.dateClosed, f.transaction_date_closed_gte, f.transaction_date_closed_lte),
    );
  }
  if (f.transaction_price_per_unit_gte !== undefined || f.transaction_price_per_unit_lte !== undefined) {
    saleChecks.push((sale) =>
      within(sale.pricePerUnit, f.transaction_price_per_unit_gte, f.transaction_price_per_unit_lte),
    );
  }
  if (saleChecks.length > 0)
    checks.push((p) => p.sale !== null && saleChecks.every((check) => p.sale !== null && check(p.sale)));
  return (property) => checks.every((check) => check(property));
}

const EARTH_RADIUS_MILES = 3958.8;

/** Great-circle distance in miles. */
export function distanceMiles(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const toRadians = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRadians;
  const dLng = (lng2 - lng1) * toRadians;
  const a =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(lat1 * toRadians) * Math.cos(lat2 * toRadians) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.sqrt(a));
}
