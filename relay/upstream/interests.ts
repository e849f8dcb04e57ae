/**
 * Who waits for which batched upstream call. The add-in's batchers merge several people's reads into one call,
 * and that call is sent from whichever request opened the batch; the team gate must still let it out on the
 * turn of any person it serves, or a colleague's one read would wait behind the opener's whole backlog.
 */
import { bulkDetailsIds, type OperationRequest } from "../../src/api/operations";

/** What a batched read asks for: one kind of call of one account (and target), and which items of it. */
export interface Wanted {
  family: string;
  /** The items (property or boundary ids) of a call that carries a list; undefined for a whole call. */
  ids?: number[];
}

interface Interest extends Wanted {
  person: string;
}

function jsonObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
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

/** What an outgoing call carries, in the terms batched reads register their interest in (by the table). */
export function carried(sent: OperationRequest | undefined): Wanted | undefined {
  if (!sent?.operation.batch || sent.accountId === undefined) return undefined;
  const { operation, values, accountId } = sent;
  switch (operation.batch) {
    case "bulk_details": {
      const ids = bulkDetailsIds(sent);
      return ids === "both" ? undefined : wantedBulkDetails(accountId, ids);
    }
    case "market_metrics": {
      const filters = jsonObject(sent.body?.market_filters);
      return wantedMarkets(accountId, numbers(filters.geo_boundary_ids));
    }
    case "forecast":
      return values.property_id !== undefined
        ? wantedForecast(accountId, "property", values.property_id as number)
        : wantedForecast(accountId, "geo_boundary", values.geo_boundary_id as number);
  }
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
