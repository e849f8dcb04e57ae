/**
 * Who waits for which batched upstream call. The add-in's batchers merge several people's reads into one call,
 * and that call is sent from whichever request opened the batch; the team gate must still let it out on the
 * turn of any person it serves, or a colleague's one read would wait behind the opener's whole backlog.
 */

/** What a batched read asks for: one kind of call of one account (and target), and which items of it. */
export interface Wanted {
  family: string;
  /** The items (property or boundary ids) of a call that carries a list; undefined for a whole call. */
  ids?: number[];
}

interface Interest extends Wanted {
  person: string;
}

const FORECAST_PATH = /^\/v1\/(properties|geo_boundary)\/(\d+)\/forecasts$/;

function jsonObject(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function numbers(values: unknown): number[] {
  return Array.isArray(values) ? values.filter((value): value is number => typeof value === "number") : [];
}

export const wantedBulkDetails = (accountId: number, ids: number[]): Wanted => ({
  family: `bulk_details ${accountId}`,
  ids,
});
export const wantedMarkets = (accountId: number, ids: number[]): Wanted => ({
  family: `explore_markets ${accountId}`,
  ids,
});
export const wantedForecast = (accountId: number, kind: string, id: number): Wanted => ({
  family: `forecasts ${kind} ${id} ${accountId}`,
});

/** What an outgoing call carries, in the terms batched reads register their interest in. */
export function carried(method: string, url: URL, body: string): Wanted | undefined {
  const path = url.pathname.slice(url.pathname.indexOf("/v1/"));
  if (method === "GET" && path === "/v1/properties/bulk_details") {
    const ids = (url.searchParams.get("property_ids") ?? "").split(",").map(Number);
    return wantedBulkDetails(Number(url.searchParams.get("account_id")), ids);
  }
  if (method !== "POST") return undefined;
  const json = jsonObject(body);
  if (path === "/v1/explore_markets") {
    const filters = jsonObject(JSON.stringify(json.market_filters ?? {}));
    return wantedMarkets(Number(json.account_id), numbers(filters.geo_boundary_ids));
  }
  const forecast = FORECAST_PATH.exec(path);
  if (forecast) {
    const kind = forecast[1] === "properties" ? "property" : "geo_boundary";
    return wantedForecast(Number(json.account_id), kind, Number(forecast[2]));
  }
  return undefined;
}

export class Interests {
  private readonly interests = new Set<Interest>();

  /** Runs a batched read of `person`'s, known to wait for `wanted` until it settles. */
  async during<T>(person: string, wanted: Wanted, read: () => Promise<T>): Promise<T> {
    const interest: Interest = { person, ...wanted };
    this.interests.add(interest);
    try {
      return await read();
    } finally {
      this.interests.delete(interest);
    }
  }

  /** Everyone waiting for some item of an outgoing call. */
  peopleWaitingFor(call: Wanted | undefined): string[] {
    if (!call) return [];
    const people = new Set<string>();
    for (const interest of this.interests) {
      if (interest.family !== call.family) continue;
      if (interest.ids && call.ids && !interest.ids.some((id) => call.ids?.includes(id))) continue;
      people.add(interest.person);
    }
    return [...people];
  }
}

const interestsOfData = new WeakMap<object, Interests>();

/** Ties a data layer to the interests its upstream fetch reads (batched reads are handed the data layer alone). */
export function bindInterests(data: object, interests: Interests): void {
  interestsOfData.set(data, interests);
}

/** The interests bound to a data layer (a fresh set, that no gate reads, for one never bound). */
export function interestsOf(data: object): Interests {
  let interests = interestsOfData.get(data);
  if (!interests) {
    interests = new Interests();
    interestsOfData.set(data, interests);
  }
  return interests;
}
