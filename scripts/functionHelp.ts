/**
 * The functions' help text (their JSDoc, which becomes functions.json and the arguments in docs/functions.md)
 * names the contract's enums, defaults and ranges, and the add-in's own option lists and bounds, through
 * placeholders this module renders from where each fact lives. One renderer for both readers of the JSDoc: the
 * build (scripts/helpPagePlugin.js rewrites functions.json) and `npm run generate:docs`
 * (scripts/generateFunctionReference.ts). A placeholder it cannot render fails the build and the docs.
 *
 * Placeholders (`operation.member` is a query parameter or JSON body member of a contract operation):
 * - `${choices operation.member}`: the member's enum with its default marked, "month (default), quarter or year";
 * - `${values Schema}`: a contract enum's values, "avg, median, sum, max or min";
 * - `${default operation.member}`, `${range operation.member}` ("1 to 1000"), `${unit operation.member}` ("miles");
 * - `${options LIST}`: an option list from OPTION_LISTS below (`_gte`/`_lte` pairs written once, `x_gte/lte`);
 * - `${own NAME}`: a fact of the add-in's own, from OWN_FACTS below (a number, or choices with a default);
 * - `${aggregates record}`: how a forecast bucket combines each field's months when no aggregation is named;
 * - `${label record.field}`: a field's readable name (`x-field-labels`), as `"names"` headers show it;
 * - `${fields record}`: a forecast record's fields, each but for its `_downside` and `_upside` bounds;
 * - `${limit NAME}`: a number of src/api/contractLimits.ts (generated from the contract's limits).
 */
import * as contractLimits from "../src/api/contractLimits";
import * as schema from "../src/api/schema";
import type { OperationId } from "../src/api/contractOperations";
import type { CatalogueRecord } from "../src/api/fieldCatalogue";
import { catalogueFields, factsIn } from "../src/api/fieldFacts";
import { requestMember } from "../src/functions/args/contractOptions";
import { defaultAggregation, type ForecastRecord } from "../src/functions/args/forecastAggregation";
import { FORWARD_AGGREGATIONS, FORWARD_PERIODS } from "../src/functions/args/forecastPeriods";
import { DEFAULT_MARKETS_GEO_TYPE } from "../src/functions/args/geoTypes";
import { DEFAULT_SECTION, SECTION_CHOICES } from "../src/functions/args/narrativeSections";
import { PROPERTY_FILTER_OPTIONS } from "../src/functions/args/propertyFilters";
import { UNIT_OPTIONS } from "../src/functions/args/unitOptions";
import {
  LOOKUP_CAP,
  LOOKUP_DEFAULT_MAX,
  LOOKUP_OPTIONS,
  PROPERTIES_CAP,
  PROPERTIES_DEFAULT_MAX,
  PROPERTIES_OPTIONS,
} from "../src/functions/args/propertyOptions";
import {
  AGGREGATIONS,
  DEFAULT_AGGREGATION,
  DEFAULT_INTERVAL,
  INTERVALS,
} from "../src/functions/shape/historyTable";
import { DEFAULT_HISTORY_LAYOUT, HISTORY_LAYOUTS } from "../src/functions/shape/historyLayout";

/** A list of choices, one of which a formula gets when it names none. */
interface Choices {
  readonly values: readonly unknown[];
  readonly default?: unknown;
}

/** The add-in's own facts the help text names (the contract's are read from it). */
const OWN_FACTS: Readonly<Record<string, number | Choices>> = {
  PROPERTIES_DEFAULT_MAX,
  PROPERTIES_CAP,
  LOOKUP_DEFAULT_MAX,
  LOOKUP_CAP,
  HISTORY_INTERVALS: { values: INTERVALS, default: DEFAULT_INTERVAL },
  HISTORY_AGGREGATIONS: { values: AGGREGATIONS, default: DEFAULT_AGGREGATION },
  HISTORY_LAYOUTS: { values: HISTORY_LAYOUTS, default: DEFAULT_HISTORY_LAYOUT },
  NARRATIVE_SECTIONS: { values: SECTION_CHOICES, default: DEFAULT_SECTION },
  MARKETS_GEO_TYPES: { values: schema.marketGeoTypeValues, default: DEFAULT_MARKETS_GEO_TYPE },
  FORWARD_PERIODS: { values: FORWARD_PERIODS },
  FORWARD_AGGREGATIONS: { values: FORWARD_AGGREGATIONS },
};

/** The option lists the functions read: RENT.LOOKUP's, RENT.PROPERTIES', RENT.UNITS', and the property filters. */
const OPTION_LISTS: Readonly<Record<string, readonly string[]>> = {
  LOOKUP: LOOKUP_OPTIONS,
  PROPERTIES: PROPERTIES_OPTIONS,
  PROPERTY_FILTERS: PROPERTY_FILTER_OPTIONS,
  UNITS: UNIT_OPTIONS,
};

const PLACEHOLDER = /\$\{(\w+) ([\w.[\]]+)\}/g;

/** "a", "a or b", "a, b or c". */
function either(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** "a and b", "a, b and c". */
function both(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

function choices({ values, default: fallback }: Choices): string {
  return either(values.map((value) => (value === fallback ? `${String(value)} (default)` : String(value))));
}

function member(reference: string): ReturnType<typeof requestMember> {
  const dot = reference.indexOf(".");
  if (dot < 0) throw new Error(`"${reference}" is not operation.member`);
  return requestMember(reference.slice(0, dot) as OperationId, reference.slice(dot + 1));
}

function enumOf(reference: string): readonly unknown[] {
  const values = member(reference).enum;
  if (!values) throw new Error(`The contract gives ${reference} no enum`);
  return values;
}

/** A contract enum's values by its schema's name (schema.ts exports each as `<name>Values`). */
function schemaValues(name: string): readonly unknown[] {
  const values = (schema as Record<string, unknown>)[`${name[0]?.toLowerCase()}${name.slice(1)}Values`];
  if (!Array.isArray(values)) throw new Error(`The contract has no enum schema ${name}`);
  return values;
}

function own(name: string): number | Choices {
  const fact = OWN_FACTS[name];
  if (fact === undefined) throw new Error(`No fact of the add-in's own named ${name}`);
  return fact;
}

/** Option names with `x_gte` and `x_lte` side by side written once, as `x_gte/lte`. */
function optionList(names: readonly string[]): string {
  const shown: string[] = [];
  for (const name of names) {
    const base = name.replace(/_lte$/, "");
    if (name.endsWith("_lte") && names.includes(`${base}_gte`)) continue;
    const pairs = name.endsWith("_gte") && names.includes(name.replace(/_gte$/, "_lte"));
    shown.push(pairs ? `${name}/lte` : name);
  }
  return shown.join(", ");
}

const BOUND = /_(downside|upside)$/;

/** A forecast record's fields without their bounds: "a, b or c". */
function forecastFields(record: string): string {
  if (record !== "propertyForecast" && record !== "boundaryForecast")
    throw new Error(`${record} is not a forecast record`);
  return either(Object.keys(catalogueFields(record)).filter((field) => !BOUND.test(field)));
}

/** "avg", or "sum for absorption and deliveries (and their bounds), avg for the rest". */
function aggregates(record: string): string {
  if (record !== "propertyForecast" && record !== "boundaryForecast")
    throw new Error(`${record} is not a forecast record`);
  const fields = Object.keys(catalogueFields(record as ForecastRecord));
  const byAggregation = new Map<string, string[]>();
  for (const field of fields) {
    const aggregation = defaultAggregation(record as ForecastRecord, field);
    byAggregation.set(aggregation, [...(byAggregation.get(aggregation) ?? []), field]);
  }
  const groups = [...byAggregation.entries()].sort((a, b) => b[1].length - a[1].length);
  const [most, ...others] = groups;
  if (!most) throw new Error(`${record} has no fields`);
  if (others.length === 0) return most[0];
  const named = others.map(([aggregation, names]) => {
    const bases = names.filter((name) => !BOUND.test(name));
    const bounded = bases.length < names.length ? " (and their bounds)" : "";
    return `${aggregation} for ${both(bases)}${bounded}`;
  });
  return `${named.join(", ")}, ${most[0]} for the rest`;
}

function rendered(kind: string, argument: string): string {
  switch (kind) {
    case "choices":
      return choices({ values: enumOf(argument), default: member(argument).default });
    case "values":
      return either(schemaValues(argument).map(String));
    case "default": {
      const fallback = member(argument).default;
      if (fallback === undefined) throw new Error(`The contract gives ${argument} no default`);
      return String(fallback);
    }
    case "range": {
      const { minimum, maximum } = member(argument);
      if (minimum === undefined || maximum === undefined)
        throw new Error(`The contract gives ${argument} no minimum and maximum`);
      return `${minimum} to ${maximum}`;
    }
    case "unit": {
      const unit = member(argument).unit;
      if (unit === undefined) throw new Error(`The contract gives ${argument} no x-unit`);
      return unit;
    }
    case "options": {
      const names = OPTION_LISTS[argument];
      if (!names) throw new Error(`No option list named ${argument}`);
      return optionList(names);
    }
    case "own": {
      const fact = own(argument);
      return typeof fact === "number" ? String(fact) : choices(fact);
    }
    case "aggregates":
      return aggregates(argument);
    case "fields":
      return forecastFields(argument);
    case "limit": {
      const limit = (contractLimits as Record<string, unknown>)[argument];
      if (typeof limit !== "number") throw new Error(`src/api/contractLimits.ts has no number ${argument}`);
      return String(limit);
    }
    case "label": {
      const [record = "", field = ""] = argument.split(".");
      const label = factsIn(record as CatalogueRecord, field)?.label;
      if (label === undefined) throw new Error(`The field catalogue has no ${argument}`);
      return label;
    }
    default:
      throw new Error(`Unknown help placeholder kind "${kind}"`);
  }
}

/** `text` with every placeholder rendered; one it cannot render, or text that still looks like one, throws. */
export function renderHelp(text: string): string {
  const out = text.replace(PLACEHOLDER, (whole, kind: string, argument: string) => {
    try {
      return rendered(kind, argument);
    } catch (error) {
      throw new Error(`Help text ${whole}: ${(error as Error).message}`, { cause: error });
    }
  });
  if (out.includes("${")) throw new Error(`Help text with a malformed placeholder: ${out}`);
  return out;
}

/** Every `description` in custom functions metadata (functions.json's object), rendered. */
export function renderMetadata<T>(metadata: T): T {
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === "string") return key === "description" ? renderHelp(value) : value;
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, walk(item, name)]));
    return value;
  };
  return walk(metadata) as T;
}

/** functions.json's text, rendered, in the metadata plugin's layout (four-space indents). */
export function renderMetadataJson(json: string): string {
  return JSON.stringify(renderMetadata(JSON.parse(json) as unknown), null, 4);
}
