import { FIELD_CATALOGUE, type CatalogueRecord, type FieldFacts } from "./fieldCatalogue";
import { fieldWordKey } from "./fieldWordKey";

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

/**
 * A field's short readable name (the contract's `x-field-labels`), for headers and the Insert list; a keyed
 * group's column adds its key ("Rent by unit type, avg (studio)"). A name the catalogue does not have is shown as
 * it is: the exact id is never lost.
 */
export function labelOf(field: string, record?: CatalogueRecord): string {
  const every = Object.keys(RECORDS) as CatalogueRecord[];
  // The record named first; a column a table adds from another record (a survey's property_id) after it.
  for (const name of record === undefined ? every : [record, ...every]) {
    const exact = RECORDS[name][field];
    if (exact) return exact.label;
    const group = keyedGroups.get(name)?.find((candidate) => field.startsWith(`${candidate}_`));
    const facts = group === undefined ? undefined : RECORDS[name][group];
    if (group !== undefined && facts)
      return `${facts.label} (${field.slice(group.length + 1).replace(/_/g, " ")})`;
  }
  return field;
}

/**
 * The fields among `offered` (the names a function takes) that a typed word names: the field of that name, else
 * every field whose synonyms (`x-field-synonyms`, the same for a name in every record) hold the word. Several
 * fields: the word is ambiguous there.
 */
export function fieldsNamed(typed: string, offered: readonly string[]): string[] {
  const key = fieldWordKey(typed);
  const own = offered.find((field) => field.toLowerCase() === key);
  if (own !== undefined) return [own];
  return offered.filter((field) => factsOf(field)?.synonyms?.includes(key));
}
