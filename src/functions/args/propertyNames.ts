/**
 * How a property typed as text is read: a name or a street address (it begins with a house number), then its
 * city and/or state after commas ("Mill Creek, Austin", "Mill Creek, TX", "1200 Elm St, Austin, TX"). The
 * lookup's own filters narrow the search (the contract's /properties/lookup: `property_name` and `address` in
 * part, `city` whole, `state` a code), and the records tell which candidate is exactly the one typed.
 */
import type { PropertyAttributes } from "../../data/dataLayer";
import { normalName } from "./placeNames";

export interface PropertyText {
  filters: { property_name?: string; address?: string; city?: string; state?: string };
  /** Whether a record is named, or at the address, exactly as typed (in any case), in the city and state typed. */
  isExactly: (record: PropertyAttributes | undefined) => boolean;
  /** `named "Mill Creek" in Austin, TX`, for messages. */
  described: string;
}

const STATE = /^[A-Za-z]{2}$/;
/** "1200 Elm St", "12-B Oak Ave": a house number, then the street. */
const STREET_ADDRESS = /^\d+[A-Za-z-]*\s+\S/;

export function readPropertyText(text: string): PropertyText {
  const parts = text.split(",").map((part) => part.trim());
  const last = parts.at(-1) ?? "";
  const state = parts.length > 1 && STATE.test(last) ? last.toUpperCase() : undefined;
  const [first = "", city] = state ? parts.slice(0, -1) : parts;
  // A name with commas of its own, past a city and a state, is taken whole.
  const whole = parts.length > (state ? 3 : 2);
  const typed = whole ? text.trim() : first;
  const byAddress = STREET_ADDRESS.test(typed);
  const where = whole ? [] : [city, state].filter((part) => part !== undefined && part !== "");
  const filters = {
    ...(byAddress ? { address: typed } : { property_name: typed }),
    ...(whole || !city ? {} : { city }),
    ...(whole || !state ? {} : { state }),
  };
  const wanted = normalName(typed);
  const same = (value: unknown, expected: string | undefined) =>
    expected === undefined || (typeof value === "string" && normalName(value) === normalName(expected));
  return {
    filters,
    isExactly: (record) =>
      record !== undefined &&
      normalName(String((byAddress ? record.address : record.property_name) ?? "")) === wanted &&
      same(record.city, filters.city) &&
      same(record.state, filters.state),
    described: `${byAddress ? "at" : "named"} "${typed}"${where.length > 0 ? ` in ${where.join(", ")}` : ""}`,
  };
}
