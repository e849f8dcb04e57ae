import { marketGeoTypeValues, type components } from "../../src/api/schema";
import { isOneOf } from "../../src/api/enumValues";
import type { Tier } from "../../src/api/tiers";
import { loadOpenApiDocument, resolvePointer } from "../contract/openapiDocument";
import type { Dataset } from "./dataset";
import type { Boundary } from "./geography";
import { boundaryMarket } from "./marketMetrics";

const SALES = resolvePointer(
  loadOpenApiDocument(),
  "#/components/schemas/Narrative/properties/attributes/properties/sales",
) as { "x-tier": Tier; "x-truncation-marker": string };

/** The tier that reads a narrative's whole sales section, and the marker that ends it for the tiers below. */
export const SALES_TIER = SALES["x-tier"];
export const TRUNCATION_MARKER = SALES["x-truncation-marker"];

export type NarrativeAttributes = components["schemas"]["Narrative"]["attributes"];

/** A percent held as a fraction (every market percent is), in words: 0.0242 -> "2.4%". */
function percent(value: unknown): string {
  if (typeof value !== "number") return "n/a";
  return `${(value * 100).toFixed(1)}%`;
}

function dollars(value: unknown): string {
  return typeof value === "number" ? `$${Math.round(value).toLocaleString("en-US")}` : "n/a";
}

function count(value: unknown): string {
  return typeof value === "number" ? Math.round(value).toLocaleString("en-US") : "0";
}

/** Only markets (MSAs and bespoke submarkets) have narratives. */
export function hasNarrative(boundary: Boundary): boolean {
  return isOneOf(marketGeoTypeValues, boundary.geoType);
}

/** The most recent narrative of a boundary, written from its market metrics; analysed on the 1st of the month. */
export function narrativeFor(dataset: Dataset, boundary: Boundary, today: string): NarrativeAttributes {
  const m = boundaryMarket(dataset, boundary, today);
  const analysisDate = `${today.slice(0, 7)}-01`;
  const name = boundary.name;
  return {
    id: boundary.id * 10_000 + Number(today.slice(2, 4)) * 100 + Number(today.slice(5, 7)),
    geo_boundary_id: boundary.id,
    analysis_date: analysisDate,
    overview:
      `${name} tracks ${count(m.property_count_total)} properties with ${count(m.total_unit_count)} units. ` +
      `Average asking rent is ${dollars(m.rent_avg_t30)} and rents changed ${percent(m.rent_growth_rate_yoy_avg)} over the past year.`,
    rent:
      `Asking rent averages ${dollars(m.rent_avg_t30)} (${dollars(m.rent_1_bed_avg_t30)} for a one-bedroom, ${dollars(m.rent_2_bed_avg_t30)} for a two-bedroom). ` +
      `Net effective rent is ${dollars(m.ner_avg_t30)} after concessions worth ${percent(m.concession_percent_avg_t30)} of rent. ` +
      `The model expects ${percent(m.forecasted_rent_growth_rate_yoy)} rent growth over the next twelve months.`,
    occupancy:
      `Leased occupancy stands at ${percent(m.leased_percent_avg_t30)} with ${percent(m.exposure_percent_avg_t30)} of units exposed. ` +
      `Units stay on the market ${typeof m.days_on_market_avg_t30 === "number" ? m.days_on_market_avg_t30 : "n/a"} days on average.`,
    construction:
      `${count(m.under_construction_unit_count_total)} units are under construction and ${count(m.planned_unit_count_total)} are planned. ` +
      `${count(m.delivered_unit_count_total_t365)} units were delivered in the past year.`,
    sales:
      `${count(m.sold_property_count_total_t365)} properties with ${count(m.sold_unit_count_total_t365)} units sold in the past twelve months. ` +
      `Average cap rates are ${percent(m.cap_rate_avg)}, and the average recorded price per unit was ${dollars(m.sale_price_avg_t365_per_unit)}. ` +
      `Estimated asset value across the market totals ${dollars(m.asset_value_total)}.`,
    demographics:
      `The area is home to about ${count(m.population_total)} people, with a median household income of ${dollars(m.median_income)} ` +
      `(${percent(m.median_income_growth_yoy)} year over year). Population grew ${percent(m.population_growth_last_5_years_total)} in five years.`,
  };
}

/** The sales section as seen below SALES_TIER: its first sentence, the marker ("...") in place of its period. */
export function truncateSales(text: string): string {
  const end = text.indexOf(". ");
  return `${end >= 0 ? text.slice(0, end) : text}${TRUNCATION_MARKER}`;
}
