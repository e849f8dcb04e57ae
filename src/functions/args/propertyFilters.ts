/** Property attribute filters shared by RENT.MARKET, RENT.MARKETS and RENT.PROPERTIES options. */
import { RECORD_FIELDS } from "../../api/recordFields";
import { propertyClassValues, unifiedStatusValues, type components } from "../../api/schema";
import type { OptionValues } from "./options";
import { isBlank, readChoice, readInteger, readList } from "./scalars";

/** The property filters as the contract types them (`PropertyFilters`). */
export type PropertyFilters = components["schemas"]["PropertyFilters"];

/** The filters' list members: the option's name (the member's, without the brackets) and the values it takes. */
const LIST_FILTERS: { readonly [Member in keyof PropertyFilters]?: readonly string[] } = {
  "unified_status[]": unifiedStatusValues,
  property_class: propertyClassValues,
};

const MEMBERS = RECORD_FIELDS.PropertyFilters ?? [];

/** The filters' number bounds (`unit_count_gte`, ...): every integer member of the contract's PropertyFilters. */
const RANGE_FILTERS = MEMBERS.filter(([, type]) => type === "integer").map(
  ([name]) => name as keyof PropertyFilters,
);

const optionOf = (member: string) => member.replace(/\[\]$/, "");

/** The options that name a property filter, in the contract's order. */
export const PROPERTY_FILTER_OPTIONS: readonly string[] = MEMBERS.map(([name]) => optionOf(name));

/** The property filters among `options`, in the contract's names; undefined when none is given. */
export function readPropertyFilters(options: OptionValues): PropertyFilters | undefined {
  const filters: Record<string, unknown> = {};
  for (const [member, values] of Object.entries(LIST_FILTERS)) {
    const option = optionOf(member);
    const chosen = readList(options.get(option), option, (item, argument) =>
      readChoice(item, argument, values),
    );
    if (chosen.length > 0) filters[member] = chosen;
  }
  for (const name of RANGE_FILTERS) {
    const value = options.get(name);
    if (!isBlank(value)) filters[name] = readInteger(value, name, 0, 1_000_000);
  }
  return Object.keys(filters).length > 0 ? (filters as PropertyFilters) : undefined;
}
