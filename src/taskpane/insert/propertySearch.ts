/**
 * The Insert tab's property search: what a person types is tried as part of a property's name, as part of its
 * address and as its city (the property lookup's filters, which it combines with AND, so one lookup each),
 * and each match is shown with its id and address so that two properties of the same name are told apart.
 * When more match than the list shows, the summary says so and asks to refine.
 */
import { ApiError } from "../../api/errors";
import type { DataLayer, LookupQuery } from "../../data/dataLayer";
import { LOOKUP } from "../../data/endpoints";
import { PROPERTY_DETAILS } from "../../data/batchedEndpoints";
import type { AccountCallOptions } from "../../data/fetched";
import { PaneInputError } from "../paneInputError";

export interface FoundProperty {
  id: number;
  label: string;
}

export interface PropertySearchResult {
  found: FoundProperty[];
  /** One sentence for the status line: how many were found, and whether the list is capped. */
  summary: string;
}

/** The lookup filters tried, in the order their matches are listed: a name match is the likeliest intent. */
const FILTERS = ["property_name", "address", "city"] as const satisfies readonly (keyof LookupQuery)[];

type Lookup = Pick<DataLayer, "read" | "readMany">;

/** "Oak Park Apartments · 1200 Elm St, Austin, TX · id 5012": name, where it is, and the id the formula takes. */
function labelOf(id: number, record: Record<string, unknown> | undefined): string {
  const text = (name: string) => (typeof record?.[name] === "string" ? (record[name] as string).trim() : "");
  const place = [text("address"), text("city"), text("state")].filter(Boolean).join(", ");
  return [text("property_name") || `Property ${id}`, place || "address not given", `id ${id}`].join(" · ");
}

/** How many match in all: exact when at most one filter matched beyond what was fetched, else a lower bound. */
function countOf(
  pages: readonly { ids: readonly number[]; total: number }[],
  union: number,
): { count: number; exact: boolean } {
  const capped = pages.filter((page) => page.total > page.ids.length);
  const matching = pages.filter((page) => page.total > 0);
  if (capped.length === 0) return { count: union, exact: true };
  if (matching.length === 1) return { count: matching[0]?.total ?? union, exact: true };
  return { count: Math.max(union, ...pages.map((page) => page.total)), exact: false };
}

/**
 * Searches properties by name, address or city: one lookup per filter, then the details of the ones shown
 * (names and addresses: the lookup gives ids only). The lookup and the details need the pro plan; below it
 * the search says so and what the plan offers instead.
 */
export async function searchProperties(
  data: Lookup,
  typed: string,
  limit: number,
  call: AccountCallOptions,
): Promise<PropertySearchResult> {
  let pages: { ids: number[]; total: number }[];
  try {
    pages = await Promise.all(
      FILTERS.map(async (filter) => {
        const { value } = await data.read(LOOKUP, { [filter]: typed, per_page: limit }, call);
        return { ids: value.data, total: value.pagination.total_count };
      }),
    );
  } catch (error) {
    if (error instanceof ApiError && error.kind === "forbidden") throw belowPro();
    throw error;
  }
  const union = [...new Set(pages.flatMap((page) => page.ids))];
  const shown = union.slice(0, limit);
  const { records } =
    shown.length > 0 ? await data.readMany(PROPERTY_DETAILS, {}, shown, call) : { records: new Map() };
  const found = shown.map((id) => {
    const record = records.get(id);
    const attributes =
      record && !(record instanceof ApiError)
        ? (record.value as unknown as Record<string, unknown>)
        : undefined;
    return { id, label: labelOf(id, attributes) };
  });
  return { found, summary: summaryOf(typed, found.length, countOf(pages, union.length)) };
}

function summaryOf(typed: string, shown: number, total: { count: number; exact: boolean }): string {
  const what = `"${typed}" (name, address or city)`;
  if (shown === 0) {
    return `Nothing found for ${what}: a city must be whole ("Austin"); a name or street may be a part ("Oak", "Elm St").`;
  }
  if (total.exact && total.count <= shown) return `${shown} found for ${what}.`;
  const of = total.exact ? `${total.count}` : `at least ${total.count}`;
  return `Showing ${shown} of ${of} found for ${what}: refine it (more of the name, or the street) to see the rest.`;
}

/** Property search below the pro plan: why it is refused, and what the person's plan offers instead. */
function belowPro(): PaneInputError {
  return new PaneInputError(
    "Property search needs the pro plan, which this sign-in does not have (property fields and forecasts need it too). " +
      'Your plan has comp sets: Insert "A comp set table" (RENT.SURVEY) to list each property of a comp set with its name and address; ' +
      'for a city\'s figures, Insert "A market metric" and type the city.',
  );
}
