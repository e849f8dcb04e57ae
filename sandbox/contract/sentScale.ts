import { isOneOf } from "../../src/api/enumValues";
import { tierValues } from "../../src/api/schema";
import type { Tier } from "../../src/api/tiers";
import type { ShapeVariant } from "../variant";
import { schemaProperties } from "./schemaFields";

type Scale = ShapeVariant["percentScale"];
type Attributes = Record<string, unknown>;

const percentsBySchema = new Map<string, Map<string, string>>();

/** A schema's percent fields and how the contract says the service writes each (`x-sent-as`). */
function percentFields(schema: string): Map<string, string> {
  let fields = percentsBySchema.get(schema);
  if (!fields) {
    fields = new Map(
      Object.entries(schemaProperties(schema))
        .filter(([, property]) => property["x-unit"] === "percent")
        .map(([name, property]) => [name, String(property["x-sent-as"] ?? "fraction")]),
    );
    percentsBySchema.set(schema, fields);
  }
  return fields;
}

const inPoints = (fraction: number) => Math.round(fraction * 10_000) / 100;

/**
 * A record the sandbox holds with every percent as a fraction (its truth, which the narratives also state),
 * written as the contract says the service writes each field: fractions as they are, points times 100, and
 * fields of open scale (`either`) in the variant's scale. The record itself when nothing changes.
 */
export function inSentScale<T extends Attributes>(schema: string, attributes: T, variantScale: Scale): T {
  // A copy only when a field changes: most records of most variants are sent as held.
  let sent: Attributes | undefined;
  for (const [field, sentAs] of percentFields(schema)) {
    const value = attributes[field];
    if (typeof value !== "number") continue;
    const scale = sentAs === "either" ? variantScale : sentAs;
    if (scale === "points") (sent ??= { ...attributes })[field] = inPoints(value);
  }
  return (sent ?? attributes) as T;
}

const tieredBySchema = new Map<string, Map<string, Tier>>();

/** A schema's fields that a tier below `x-tier` does not see. */
export function tieredFields(schema: string): Map<string, Tier> {
  let fields = tieredBySchema.get(schema);
  if (!fields) {
    fields = new Map(
      Object.entries(schemaProperties(schema)).flatMap(([name, property]) => {
        const tier = property["x-tier"];
        return isOneOf(tierValues, tier) ? [[name, tier] as const] : [];
      }),
    );
    tieredBySchema.set(schema, fields);
  }
  return fields;
}
