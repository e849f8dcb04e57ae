/**
 * What the formula builder offers to pick, with each field's meaning and unit in an underwriter's words.
 * Names are the contract's (src/api/openapi.yaml: PropertyAttributes, the market metrics of
 * CompareMarketAttributes, the forecast fields of api-spec.md); a test holds them to it. The fields most
 * asked for come first, in words of their own; every other field of the record follows, described from its
 * name and type (fieldWords.ts).
 */
import type { CatalogueRecord } from "../../api/fieldCatalogue";
import { factsIn, labelOf } from "../../api/fieldFacts";
import { RECORD_FIELDS } from "../../api/recordFields";
import { meaningOf, PERCENT_UNIT, unitOf } from "./fieldWords";
import { SECTION_MEANINGS } from "../../functions/args/narrativeSections";

export interface CatalogueField {
  /** The name the RENT function takes. */
  name: string;
  /** The field's short readable name (the contract's x-field-labels), shown beside the name. */
  label?: string;
  meaning: string;
  unit: string;
  /** The plan (tier) the field needs, when the base plan does not have it (openapi.yaml x-tier). */
  plan?: string;
  /** Other words the functions take for it (the contract's x-field-synonyms), which the search finds it by. */
  synonyms?: readonly string[];
}

const field = (name: string, meaning: string, unit: string): CatalogueField => ({ name, meaning, unit });

/** "leased occupancy: ..." as a sentence. */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The fields with their readable names, the words the functions take for them and the plan each needs, from the
 * contract's field catalogue (or the function's whole plan). Where a word names several fields ("occupancy"),
 * the contract's meaning of each is the one shown, so the list tells them apart as a refused formula does.
 */
function withPlans(
  fields: readonly CatalogueField[],
  record: CatalogueRecord,
  functionPlan?: string,
): readonly CatalogueField[] {
  return fields.map((entry) => {
    const facts = factsIn(record, entry.name);
    const plan = facts?.tier ?? functionPlan;
    const named: CatalogueField = {
      ...entry,
      label: labelOf(entry.name, record),
      meaning: facts?.means === undefined ? entry.meaning : sentence(facts.means),
      ...(facts?.synonyms ? { synonyms: facts.synonyms } : {}),
    };
    return plan === undefined ? named : { ...named, plan };
  });
}

/** A field whose meaning the contract gives (x-field-synonyms `means`): withPlans shows that one. */
const MEANT_IN_CONTRACT = "";

const RENT = "$ per unit per month";
const RENT_PSF = "$ per sq ft per month";
// One percent convention: a percent is a fraction shown under Excel's % format.
const POINTS = PERCENT_UNIT;
const FRACTION = PERCENT_UNIT;

/** Lists and nested records do not fit a cell: a formula asks for their parts. */
const CELL_TYPES = new Set(["string", "number", "integer", "boolean"]);

/** The chosen fields first, then every other field of the contract schema that fits a cell. */
function withEveryField(chosen: readonly CatalogueField[], schema: string): readonly CatalogueField[] {
  const named = new Set(chosen.map((entry) => entry.name));
  const others = (RECORD_FIELDS[schema] ?? [])
    .filter(([name, type]) => !named.has(name) && CELL_TYPES.has(type))
    .map(([name, type]) => field(name, meaningOf(name), unitOf(name, type)));
  return [...chosen, ...others];
}

const COMMON_MARKET_METRICS: readonly CatalogueField[] = [
  field("rent_avg_t30", "Average asking rent over the last 30 days", RENT),
  field("ner_avg_t30", "Average net effective rent (after concessions), last 30 days", RENT),
  field("rent_psf_avg_t30", "Average asking rent per square foot, last 30 days", RENT_PSF),
  field("rent_1_bed_avg_t30", "Average asking rent of one-bedroom units, last 30 days", RENT),
  field("rent_2_bed_avg_t30", "Average asking rent of two-bedroom units, last 30 days", RENT),
  field("leased_percent_avg_t30", MEANT_IN_CONTRACT, POINTS),
  field("advertised_occupancy_percent_avg_t30", MEANT_IN_CONTRACT, POINTS),
  field("exposure_percent_avg_t30", "Units vacant or on notice, share of all units, last 30 days", POINTS),
  field("concession_percent_avg_t30", "Concessions as a share of rent, last 30 days", FRACTION),
  field("days_on_market_avg_t30", "Average days a unit is listed before it leases, last 30 days", "days"),
  field("rent_growth_rate_yoy_avg", "Asking rent growth over the last year", FRACTION),
  field("forecasted_rent_growth_rate_yoy", "Forecast asking rent growth over the next year", FRACTION),
  field("total_unit_count", "Apartment units in the market", "units"),
  field("under_construction_unit_count_total", "Units under construction", "units"),
  field("delivered_unit_count_total_t365", "Units delivered in the last 365 days", "units"),
  field("median_income", "Median household income", "$ per year"),
  field("population_total", "Population", "people"),
  field(
    "sale_price_avg_t365_per_unit",
    "Average sale price per unit, sales of the last 365 days",
    "$ per unit",
  ),
  field("cap_rate_avg", "Average capitalisation rate of sales", FRACTION),
];

export const MARKET_METRICS = withPlans(
  withEveryField(COMMON_MARKET_METRICS, "CompareMarketAttributes"),
  "market",
);

const COMMON_PROPERTY_FIELDS: readonly CatalogueField[] = [
  field("property_name", "The property's name", "text"),
  field("address", "Street address", "text"),
  field("city", "City", "text"),
  field("unit_count", "Apartment units in the property", "units"),
  field("year_built", "Year construction finished", "year"),
  field("property_class", "Quality class (A, B, C, D)", "text"),
  field("number_of_stories", "Storeys of the tallest building", "storeys"),
  field("average_unit_size", "Average unit size", "sq ft"),
  field("asking_rent", "Average asking rent of the available units", RENT),
  field("asking_rent_psf", "Average asking rent per square foot", RENT_PSF),
  field("net_effective_rent", "Asking rent less concessions", RENT),
  field("asking_rent_1_bed", "Asking rent of one-bedroom units", RENT),
  field("asking_rent_2_bed", "Asking rent of two-bedroom units", RENT),
  field("leased_percent", MEANT_IN_CONTRACT, POINTS),
  field("advertised_occupancy_percent", MEANT_IN_CONTRACT, POINTS),
  field("exposure_percent", "Units vacant or on notice, share of all units", POINTS),
  field("management_company_name", "Management company", "text"),
  field("walk_score", "Walk Score (0 to 100)", "score"),
];

// Property records come from pro operations (bulk details), ownership and sale fields from pro-plus.
export const PROPERTY_FIELDS = withPlans(
  withEveryField(COMMON_PROPERTY_FIELDS, "PropertyAttributes"),
  "property",
  "pro",
);

export const PROPERTY_FORECAST_FIELDS: readonly CatalogueField[] = withPlans(
  [
    field("rent_growth_rate_yoy", "Forecast rent growth of the property, year over year, by month", FRACTION),
    field("occupancy_percent", "Forecast occupancy of the property, by month", POINTS),
    field("rent_growth_rate_yoy_downside", "Rent growth in the downside scenario", FRACTION),
    field("rent_growth_rate_yoy_upside", "Rent growth in the upside scenario", FRACTION),
    field("occupancy_percent_downside", "Occupancy in the downside scenario", POINTS),
    field("occupancy_percent_upside", "Occupancy in the upside scenario", POINTS),
  ],
  "propertyForecast",
  "pro",
);

export const BOUNDARY_FORECAST_FIELDS: readonly CatalogueField[] = withPlans(
  [
    field("rent_growth_yoy", "Forecast rent growth, year over year, by month", FRACTION),
    field("occupancy", "Forecast occupancy, by month", POINTS),
    field(
      "absorption",
      "Forecast units absorbed (net leased), per month (a quarter or year adds them up)",
      "units",
    ),
    field("deliveries", "Forecast new units delivered, per month (a quarter or year adds them up)", "units"),
    field("rent_growth_yoy_downside", "Rent growth in the downside scenario", FRACTION),
    field("rent_growth_yoy_upside", "Rent growth in the upside scenario", FRACTION),
  ],
  "boundaryForecast",
  "pro",
);

export const COMP_SET_TABLES: readonly CatalogueField[] = [
  field("SURVEY", "Market survey: one row per property with rent, size, occupancy and fees", "table"),
  field("UNITS", "Available units with every unit field", "table"),
  field("FLOORPLANS", "Floor plans by bedrooms and bathrooms", "table"),
];

/** RENT.NARRATIVE's sections as RENT.NARRATIVE reads them, then "all". */
export const NARRATIVE_SECTIONS: readonly CatalogueField[] = [
  ...Object.entries(SECTION_MEANINGS).map(([name, meaning]) => field(name, meaning, "text")),
  field("all", "Every section", "text"),
];

/** The fields whose name, synonyms, meaning or unit contain every word typed (any case, any order). */
export function filterFields(fields: readonly CatalogueField[], typed: string): CatalogueField[] {
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
  return fields.filter((candidate) => {
    const synonyms = (candidate.synonyms ?? []).map((word) => word.replace(/_/g, " ")).join(" ");
    const text = `${candidate.label ?? ""} ${candidate.name.replace(/_/g, " ")} ${candidate.name} ${synonyms} ${candidate.meaning} ${candidate.unit} ${candidate.plan ?? ""}`;
    return words.every((word) => text.toLowerCase().includes(word));
  });
}
