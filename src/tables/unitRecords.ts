import { catalogueFields } from "../api/fieldFacts";
import { unitAmenityCategoryValues } from "../api/schema";
import { recordsToTable, type FieldFlattener } from "./records";
import type { TableData } from "./tableData";

/** A unit as `GET /comp_sets/{id}/units` returns it (api-spec.md, "Unit record"). */
export interface UnitEnvelope {
  readonly id: string;
  readonly type?: string;
  readonly attributes: Readonly<Record<string, unknown>>;
}

const amenityField = (category: string) => `amenities_${category}`;

/** The columns the concessions object becomes (flattenConcessions): its summary, its two lists, its two timestamps. */
const CONCESSION_COLUMNS = [
  "concessions",
  "rent_concessions",
  "non_rent_concessions",
  "concessions_expires_at",
  "concessions_updated_at",
] as const;

/**
 * The columns of each unit field that is flattened; the amenity columns are the contract's categories in its
 * order (a category the service adds later still gets a column, after these).
 */
const FLATTENED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  concessions: CONCESSION_COLUMNS,
  amenity_names: unitAmenityCategoryValues.map(amenityField),
};

/**
 * The contract's order of the unit's fields (UnitAttributes), so a sheet reads identity, timing, size and rent,
 * comparison, then the flattened parts; the envelope's id first.
 */
export const UNIT_COLUMN_ORDER: readonly string[] = [
  "id",
  ...Object.keys(catalogueFields("unit")).flatMap((field) => FLATTENED_COLUMNS[field] ?? [field]),
];

interface ConcessionItem {
  display_text?: unknown;
  expires_on_date?: unknown;
  restrictions?: unknown;
}

/** "2 months free (expires 2026-12-31; 12-month lease)": everything an underwriter needs in one cell. */
function concessionText(item: ConcessionItem): string {
  const notes: string[] = [];
  if (typeof item.expires_on_date === "string") notes.push(`expires ${item.expires_on_date}`);
  if (Array.isArray(item.restrictions)) notes.push(...item.restrictions.filter((r) => typeof r === "string"));
  const text = typeof item.display_text === "string" ? item.display_text : "";
  return notes.length === 0 ? text : `${text} (${notes.join("; ")})`;
}

function concessionList(items: unknown): string | null {
  if (!Array.isArray(items) || items.length === 0) return null;
  return items.map((item) => concessionText((item ?? {}) as ConcessionItem)).join(" | ");
}

/** The concessions object becomes its summary, its two lists as text, and its two timestamps. */
const flattenConcessions: FieldFlattener = (value) => {
  const concessions = (value ?? {}) as Record<string, unknown>;
  const columns: Record<(typeof CONCESSION_COLUMNS)[number], unknown> = {
    concessions: concessions.display_text ?? null,
    rent_concessions: concessionList(concessions.rent_concessions),
    non_rent_concessions: concessionList(concessions.non_rent_concessions),
    concessions_expires_at: concessions.expires_at ?? null,
    concessions_updated_at: concessions.updated_at ?? null,
  };
  return columns;
};

/** One column per amenity category, listing that unit's amenities in it; categories outside the contract included. */
const flattenAmenities: FieldFlattener = (value) => {
  const byCategory = (value ?? {}) as Record<string, unknown>;
  const columns: Record<string, unknown> = {};
  for (const [category, names] of Object.entries(byCategory)) {
    columns[amenityField(category)] = Array.isArray(names) && names.length > 0 ? names.join("; ") : null;
  }
  return columns;
};

/** Every field of every unit, concessions and amenities flattened into readable columns. */
export function unitsToTable(units: readonly UnitEnvelope[]): TableData {
  return recordsToTable(
    units.map((unit) => ({ id: unit.id, ...unit.attributes })),
    {
      columnOrder: UNIT_COLUMN_ORDER,
      flatteners: { concessions: flattenConcessions, amenity_names: flattenAmenities },
    },
  );
}
