/**
 * The reference underwriting workbook of issue 8, as data: every RENT cell with its arguments, plus the facts
 * about its inputs that a formula does not show but the request floor depends on (a boundary's geo type).
 * The benchmark, the naive baseline, the floor and the soak test all read this one description.
 */
import { compSetsOf } from "../../sandbox/data/compSets";
import type { Dataset } from "../../sandbox/data/dataset";
import { accountsForClient } from "../../sandbox/data/clients";

export type MarketGeoType = "MSA" | "BespokeSubmarket";

export interface BoundaryRef {
  id: number;
  /** Known to whoever built the workbook, not to the formula: =RENT.MARKET(id, ...) names the id only. */
  geoType: MarketGeoType;
}

export type WorkbookCell =
  /** =RENT.PROPERTY(ids, fields): ids down a column, fields across a row; 1 x 1 is an ordinary cell. */
  | { fn: "PROPERTY"; ids: number[]; fields: string[] }
  | { fn: "FORECAST"; propertyId: number; fields: string[] }
  | { fn: "MARKET"; boundary: BoundaryRef; metric: string }
  | { fn: "GEOFORECAST"; boundaryId: number; fields: string[] }
  | { fn: "UNITS"; compSetId: number }
  | { fn: "SURVEY"; compSetId: number }
  | { fn: "NARRATIVE"; boundaryId: number; section: string };

export interface Workbook {
  /** The account the formulas act for: the sign-in's default (its first account). */
  accountId: number;
  cells: WorkbookCell[];
}

export const WORKBOOK_CLIENT = { clientId: "demo-pro", clientSecret: "sandbox-secret-pro" } as const;

export const PROPERTY_FIELDS = [
  "asking_rent",
  "net_effective_rent",
  "unit_count",
  "year_built",
  "leased_percent",
  "property_class",
  "submarket_name",
  "asking_rent_psf",
];
export const FORECAST_FIELDS = ["rent_growth_rate_yoy", "occupancy_percent"];
export const MARKET_METRICS = [
  "rent_avg_t30",
  "ner_avg_t30",
  "rent_growth_rate_yoy_avg",
  "leased_percent_avg_t30",
  "concession_percent_avg_t30",
  "total_unit_count",
];
const NARRATIVE_SECTIONS = ["overview", "rent", "occupancy", "construction", "all"];

const PROPERTY_COUNT = 250;
const FORECAST_COUNT = 25;
const MARKETS_PER_TYPE = 5;
const GEOFORECAST_COUNT = 5;
const COMP_SET_COUNT = 3;

/** Every `step`-th item, `count` of them: spread across the dataset rather than one neighbourhood. */
function spread<T>(items: readonly T[], count: number): T[] {
  const step = Math.max(1, Math.floor(items.length / count));
  return Array.from({ length: count }, (_, index) => items[index * step]).filter(
    (item): item is T => item !== undefined,
  );
}

/** `count` scaled, at least one, at most what the dataset has. */
const scaled = (count: number, scale: number, available: number) =>
  Math.max(1, Math.min(available, Math.round(count * scale)));

/**
 * Builds the workbook from the sandbox's data, so that its ids exist: 250 properties x 8 fields as single
 * cells (2,000 calls) plus the same block as one spilled formula, 25 two-field property forecasts, 10
 * boundaries (5 MSAs and a submarket of each) x 6 market metrics, 5 boundary forecasts, 3 unit lists, 3
 * market surveys and 5 narratives. `scale` multiplies every count (the same mix, more of each) as far as
 * the dataset has ids: 36 MSAs, and the comp sets the client may read.
 */
export function referenceWorkbook(dataset: Dataset, scale = 1): Workbook {
  const [firstAccount] = accountsForClient(WORKBOOK_CLIENT.clientId);
  if (!firstAccount) throw new Error(`${WORKBOOK_CLIENT.clientId} has no account`);
  const readable = new Set(accountsForClient(WORKBOOK_CLIENT.clientId).map((account) => account.id));

  const propertyIds = spread(
    dataset.properties,
    scaled(PROPERTY_COUNT, scale, dataset.properties.length),
  ).map((property) => property.id);
  const allMsas = dataset.geography.boundaries.filter((boundary) => boundary.geoType === "MSA");
  const msas = spread(allMsas, scaled(MARKETS_PER_TYPE, scale, allMsas.length));
  const submarkets = msas.map((msa) => {
    const submarket = dataset.geography.boundaries.find(
      (boundary) => boundary.geoType === "BespokeSubmarket" && boundary.msaIndex === msa.msaIndex,
    );
    if (!submarket) throw new Error(`MSA ${msa.id} has no submarket`);
    return submarket;
  });
  const boundaries: BoundaryRef[] = [
    ...msas.map((msa) => ({ id: msa.id, geoType: "MSA" as const })),
    ...submarkets.map((submarket) => ({ id: submarket.id, geoType: "BespokeSubmarket" as const })),
  ];
  const readableCompSets = compSetsOf(dataset).filter((compSet) => readable.has(compSet.accountId));
  const compSetIds = readableCompSets
    .slice(0, scaled(COMP_SET_COUNT, scale, readableCompSets.length))
    .map((compSet) => compSet.id);
  // Alternating MSAs and submarkets, so boundary forecasts and narratives cover both kinds.
  const mixed = boundaries.slice(0, msas.length).flatMap((msa, index) => {
    const submarket = boundaries[msas.length + index];
    return submarket ? [msa, submarket] : [msa];
  });
  const narrativeCount = scaled(NARRATIVE_SECTIONS.length, scale, mixed.length);

  const cells: WorkbookCell[] = [
    ...propertyIds.flatMap((id) =>
      PROPERTY_FIELDS.map((field): WorkbookCell => ({ fn: "PROPERTY", ids: [id], fields: [field] })),
    ),
    { fn: "PROPERTY", ids: propertyIds, fields: PROPERTY_FIELDS },
    ...propertyIds
      .slice(0, scaled(FORECAST_COUNT, scale, propertyIds.length))
      .map((propertyId): WorkbookCell => ({ fn: "FORECAST", propertyId, fields: FORECAST_FIELDS })),
    ...boundaries.flatMap((boundary) =>
      MARKET_METRICS.map((metric): WorkbookCell => ({ fn: "MARKET", boundary, metric })),
    ),
    ...mixed.slice(0, scaled(GEOFORECAST_COUNT, scale, mixed.length)).map((boundary): WorkbookCell => ({
      fn: "GEOFORECAST",
      boundaryId: boundary.id,
      fields: ["rent_growth_yoy"],
    })),
    ...compSetIds.map((compSetId): WorkbookCell => ({ fn: "UNITS", compSetId })),
    ...compSetIds.map((compSetId): WorkbookCell => ({ fn: "SURVEY", compSetId })),
    ...mixed.slice(-narrativeCount).map((boundary, index): WorkbookCell => ({
      fn: "NARRATIVE",
      boundaryId: boundary.id,
      section: NARRATIVE_SECTIONS[index % NARRATIVE_SECTIONS.length] ?? "overview",
    })),
  ];
  return { accountId: firstAccount.id, cells };
}

/** The formula a cell holds, for messages and tables. */
export function formulaOf(cell: WorkbookCell): string {
  const text = (values: readonly string[]) => `"${values.join(", ")}"`;
  switch (cell.fn) {
    case "PROPERTY":
      return cell.ids.length === 1 && cell.fields.length === 1
        ? `=RENT.PROPERTY(${cell.ids[0]}, "${cell.fields[0]}")`
        : `=RENT.PROPERTY(<${cell.ids.length} ids>, <${cell.fields.length} fields>)`;
    case "FORECAST":
      return `=RENT.FORECAST(${cell.propertyId}, ${text(cell.fields)})`;
    case "MARKET":
      return `=RENT.MARKET(${cell.boundary.id}, "${cell.metric}")`;
    case "GEOFORECAST":
      return `=RENT.GEOFORECAST(${cell.boundaryId}, ${text(cell.fields)})`;
    case "UNITS":
      return `=RENT.UNITS(${cell.compSetId})`;
    case "SURVEY":
      return `=RENT.SURVEY(${cell.compSetId})`;
    case "NARRATIVE":
      return `=RENT.NARRATIVE(${cell.boundaryId}, "${cell.section}")`;
  }
}
