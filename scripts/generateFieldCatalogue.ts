/**
 * Writes src/api/fieldCatalogue.ts: the unit, the scale the service writes it in, the tier and the words people
 * type for every field of the records the add-in shows, read from the `x-unit` / `x-sent-as` / `x-tier` /
 * `x-field-units` keywords and the `x-field-synonyms` of src/api/openapi.yaml, so the readers, the formats, the Insert list and the function reference take them from
 * the contract. Nested groups are flattened to the column names tables use ("exposure_current"). Part of
 * `npm run generate:api`; a test fails when the file is stale.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadOpenApiDocument, resolvePointer, type JsonObject } from "../sandbox/contract/openapiDocument";
import { fieldWordKey } from "../src/api/fieldWordKey";

/** The catalogue's records: a name the code uses, and where its fields are in the contract. */
export const CATALOGUE_RECORDS = {
  property: "#/components/schemas/PropertyAttributes",
  market: "#/components/schemas/CompareMarketAttributes",
  unit: "#/components/schemas/UnitAttributes",
  survey: "#/components/schemas/MarketSurvey/properties/attributes/properties/market_survey_items/items",
  surveyAverage: "#/components/schemas/MarketSurvey/properties/attributes/properties/comp_average_column",
  floorPlan: "#/components/schemas/FloorPlan",
  exportProperty: "#/components/schemas/ExportPropertyRow",
  exportUnit: "#/components/schemas/ExportUnitRow",
  exportFloorPlan: "#/components/schemas/ExportFloorPlanRow",
} as const;

/** Forecast fields: `x-field-units` of each aggregation's `field`. */
export const CATALOGUE_FORECASTS = {
  propertyForecast: "#/components/schemas/PropertyForecastAggregation/properties/field",
  boundaryForecast: "#/components/schemas/BoundaryForecastAggregation/properties/field",
} as const;

export const FIELD_CATALOGUE_PATH = join(__dirname, "..", "src", "api", "fieldCatalogue.ts");

export interface FieldFacts {
  unit: string;
  /** The field's readable name (`x-field-labels`). */
  label: string;
  sentAs?: string;
  tier?: string;
  /** An object keyed by unit type, bed/bath or fee kind: its columns are `<field>_<key>...`. */
  keyed?: true;
  aggregate?: string;
  /** Words that name the field (`x-field-synonyms`), as the functions compare them: lower case, "_" for spaces. */
  synonyms?: string[];
  /** What the field is, where a word names several fields of one record. */
  means?: string;
}

function target(node: JsonObject): JsonObject {
  const document = loadOpenApiDocument();
  let here = node;
  while (typeof here.$ref === "string") here = resolvePointer(document, here.$ref) as JsonObject;
  return here;
}

/** The readable names of the fields (`x-field-labels` of the components), one per field name. */
function labels(): Record<string, unknown> {
  const components = loadOpenApiDocument().components as JsonObject;
  return (components["x-field-labels"] ?? {}) as Record<string, unknown>;
}

interface Synonyms {
  words: string[];
  means?: string;
}

/** The words people type for each field (`x-field-synonyms` of the components). */
function synonyms(): Record<string, Synonyms> {
  const components = loadOpenApiDocument().components as JsonObject;
  return (components["x-field-synonyms"] ?? {}) as unknown as Record<string, Synonyms>;
}

function labelOf(field: string): string {
  const label = labels()[field];
  if (typeof label !== "string" || label === "")
    throw new Error(`${field} has no x-field-labels entry in the contract`);
  return label;
}

/**
 * The contract's tiers, lowest first (`Tier`, whose `x-tier-order` must be ascending: the add-in and the sandbox
 * rank tiers by their place in the generated list).
 */
export function contractTiers(): string[] {
  const tier = resolvePointer(loadOpenApiDocument(), "#/components/schemas/Tier") as JsonObject | undefined;
  if (!tier || !Array.isArray(tier.enum) || tier.enum.length === 0)
    throw new Error("The contract has no Tier enum");
  if (tier["x-tier-order"] !== "ascending")
    throw new Error(
      "Tier's x-tier-order must be ascending (the code ranks tiers by their place, lowest first)",
    );
  return tier.enum as string[];
}

/** A tier named by `x-tier` or `x-required-tier`, checked against the contract's `Tier`. */
function tierNamed(value: unknown, where: string): string {
  if (typeof value !== "string" || !contractTiers().includes(value))
    throw new Error(
      `${where}: ${String(value)} is not a Tier of the contract (${contractTiers().join(", ")})`,
    );
  return value;
}

function factsOf(schema: JsonObject, field: string): FieldFacts | undefined {
  if (typeof schema["x-unit"] !== "string") return undefined;
  const facts: FieldFacts = { unit: schema["x-unit"], label: labelOf(field) };
  if (typeof schema["x-sent-as"] === "string") facts.sentAs = schema["x-sent-as"];
  if (schema["x-tier"] !== undefined) facts.tier = tierNamed(schema["x-tier"], `x-tier of ${field}`);
  if (schema.type === "object" && schema.additionalProperties && !schema.properties) facts.keyed = true;
  if (typeof schema["x-aggregate"] === "string") facts.aggregate = schema["x-aggregate"];
  const words = synonyms()[field];
  if (words) {
    // A word that is the field's own name adds nothing: the name is always taken.
    facts.synonyms = [...new Set(words.words.map(fieldWordKey))].filter((word) => word !== field);
    if (words.means !== undefined) facts.means = words.means;
  }
  return facts;
}

/** A schema's fields with their facts, nested groups (and referenced groups) flattened as "parent_child". */
function flatFields(schema: JsonObject, prefix: string, into: Record<string, FieldFacts>): void {
  const properties = (target(schema).properties ?? {}) as Record<string, JsonObject>;
  for (const [name, property] of Object.entries(properties)) {
    const flat = prefix === "" ? name : `${prefix}_${name}`;
    const facts = factsOf(property, flat);
    if (facts) into[flat] = facts;
    else if (target(property).properties) flatFields(property, flat, into);
    else throw new Error(`${flat} has no x-unit in the contract`);
  }
}

export function fieldCatalogue(): Record<string, Record<string, FieldFacts>> {
  const document = loadOpenApiDocument();
  const catalogue: Record<string, Record<string, FieldFacts>> = {};
  for (const [record, pointer] of Object.entries(CATALOGUE_RECORDS)) {
    const fields: Record<string, FieldFacts> = {};
    flatFields(resolvePointer(document, pointer) as JsonObject, "", fields);
    catalogue[record] = fields;
  }
  for (const [record, pointer] of Object.entries(CATALOGUE_FORECASTS)) {
    const field = resolvePointer(document, pointer) as JsonObject;
    const units = field["x-field-units"] as Record<string, JsonObject>;
    // The add-in checks a forecast's fields by these keys: they must be the `field` enum, no more, no fewer.
    if (JSON.stringify(Object.keys(units).sort()) !== JSON.stringify([...(field.enum as string[])].sort()))
      throw new Error(`${pointer}: x-field-units must name exactly the fields of its enum`);
    catalogue[record] = Object.fromEntries(
      Object.entries(units).map(([field, facts]) => [field, factsOf(facts, field) as FieldFacts]),
    );
  }
  checkSynonyms(catalogue);
  return catalogue;
}

/**
 * The synonyms name fields the catalogue has, and a word several fields of one record share says what each
 * field means: the functions refuse such a word with those meanings rather than pick one.
 */
function checkSynonyms(catalogue: Record<string, Record<string, FieldFacts>>): void {
  const named = new Set(Object.values(catalogue).flatMap((fields) => Object.keys(fields)));
  for (const field of Object.keys(synonyms()))
    if (!named.has(field)) throw new Error(`x-field-synonyms names ${field}, which no record has`);
  for (const [record, fields] of Object.entries(catalogue)) {
    const byWord = new Map<string, string[]>();
    for (const [field, facts] of Object.entries(fields))
      for (const word of facts.synonyms ?? []) byWord.set(word, [...(byWord.get(word) ?? []), field]);
    for (const [word, shared] of byWord)
      for (const field of shared)
        if (shared.length > 1 && fields[field]?.means === undefined)
          throw new Error(
            `${record}: "${word}" names ${shared.join(", ")}; ${field} needs a means in x-field-synonyms`,
          );
  }
}

/** Operations above the lowest tier (`x-required-tier`), as "METHOD /path/{template}" -> tier. */
export function operationTiers(): Record<string, string> {
  const paths = loadOpenApiDocument().paths as Record<string, Record<string, JsonObject>>;
  const [lowest] = contractTiers();
  const tiers: Record<string, string> = {};
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const required = operation?.["x-required-tier"];
      if (required === undefined) continue;
      const tier = tierNamed(required, `x-required-tier of ${method.toUpperCase()} ${path}`);
      if (tier !== lowest) tiers[`${method.toUpperCase()} ${path}`] = tier;
    }
  }
  return tiers;
}

export function fieldCatalogueSource(): string {
  const entries = Object.entries(fieldCatalogue())
    .map(([record, fields]) => `  ${record}: ${JSON.stringify(fields)},`)
    .join("\n");
  return `// Generated by scripts/generateFieldCatalogue.ts from src/api/openapi.yaml (npm run generate:api). Do not edit.

import type { Tier } from "./tiers";

/** What a field's value means (openapi.yaml, \`x-unit\`). */
export type FieldUnit =
  | "percent"
  | "currency"
  | "count"
  | "days"
  | "year"
  | "date"
  | "timestamp"
  | "miles"
  | "sq_ft"
  | "acres"
  | "coordinate"
  | "number"
  | "identifier"
  | "boolean"
  | "text";

/** How the service writes a field (\`x-sent-as\`): a percent as a fraction, in points, either, or a number as text. */
export type SentAs = "fraction" | "points" | "either" | "text";

export interface FieldFacts {
  readonly unit: FieldUnit;
  /** A short readable name ("Asking rent, avg 30 d", \`x-field-labels\`), shown beside the exact id. */
  readonly label: string;
  readonly sentAs?: SentAs;
  /** The lowest tier that sees the field (\`x-tier\`); absent: every tier. */
  readonly tier?: Tier;
  /** An object keyed by unit type, bed/bath or fee kind: its table columns are \`<field>_<key>...\`. */
  readonly keyed?: true;
  /** How a forecast bucket of several months adds up when no aggregation is named. */
  readonly aggregate?: "sum";
  /** Words that name the field (\`x-field-synonyms\`), lower case with "_" for spaces: another record's name, plain words. */
  readonly synonyms?: readonly string[];
  /** What the field is, where a word names several fields of one record ("occupancy"). */
  readonly means?: string;
}

/** Every field of every record the add-in shows, by record, in contract order (nested groups flattened). */
export const FIELD_CATALOGUE = {
${entries}
} as const satisfies Readonly<Record<string, Readonly<Record<string, FieldFacts>>>>;

export type CatalogueRecord = keyof typeof FIELD_CATALOGUE;

/** Operations a tier above the lowest is required for (openapi.yaml, \`x-required-tier\`): "METHOD /path" -> tier. */
export const OPERATION_TIERS: Readonly<Record<string, Tier>> = ${JSON.stringify(operationTiers())};
`;
}

if (require.main === module) writeFileSync(FIELD_CATALOGUE_PATH, fieldCatalogueSource());
