import { FIELD_CATALOGUE, type CatalogueRecord, type FieldFacts } from "./fieldCatalogue";

/**
 * Look-ups in the field catalogue (src/api/fieldCatalogue.ts, generated from openapi.yaml): what a field means,
 * how the service writes it and which tier sees it.
 */
const RECORDS: Readonly<Record<CatalogueRecord, Readonly<Record<string, FieldFacts>>>> = FIELD_CATALOGUE;

/** Keyed groups of each record, longest name first, so "by_unit_type_rent_avg_studio" finds its group. */
const keyedGroups = new Map<CatalogueRecord, string[]>(
  (Object.keys(RECORDS) as CatalogueRecord[]).map((record) => [
    record,
    Object.entries(RECORDS[record])
      .filter(([, facts]) => facts.keyed)
      .map(([name]) => name)
      .sort((a, b) => b.length - a.length),
  ]),
);

export function catalogueFields(record: CatalogueRecord): Readonly<Record<string, FieldFacts>> {
  return RECORDS[record];
}

/** The facts of a field (or of a keyed group's column) of one record. */
export function factsIn(record: CatalogueRecord, field: string): FieldFacts | undefined {
  const exact = RECORDS[record][field];
  if (exact) return exact;
  const group = keyedGroups.get(record)?.find((name) => field.startsWith(`${name}_`));
  return group === undefined ? undefined : RECORDS[record][group];
}

const byName = new Map<string, FieldFacts | null>();

/**
 * The facts of a field name wherever the catalogue has it (a column of a table or a field of a record whose
 * kind of record the caller does not say). Names mean the same in every record, units included.
 */
export function factsOf(field: string): FieldFacts | undefined {
  let facts = byName.get(field);
  if (facts === undefined) {
    facts = null;
    for (const record of Object.keys(RECORDS) as CatalogueRecord[]) {
      const found = factsIn(record, field);
      if (found) {
        facts = found;
        break;
      }
    }
    byName.set(field, facts);
  }
  return facts ?? undefined;
}
