import "../support/customFunctionsGlobal";
import "fake-indexeddb/auto";
import { collectPages } from "../../src/api/paging";
import { lookup, properties } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { accountsForClient } from "../../sandbox/data/clients";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";
import { ACCOUNT_ID, layerFor, PRO } from "./support/dataHarness";
import { LOOKUP as LOOKUP_ROW } from "../../src/data/endpoints";

/**
 * The live service's paged answers were seen without `pagination.total_pages`; a loop that waits for it
 * never ends. Every paging loop of the add-in runs here against a sandbox that strips it.
 */
let env: SignedInSandbox;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro", { propertyCount: 2000 });
});

afterEach(() => {
  env.sandbox.faults.reset();
});

afterAll(() => env.close());

const ACCOUNTS = "/v1/accounts";
const LOOKUP = "/v1/properties/lookup";
const SEARCH = "/v1/geo_boundaries/properties";

/** Requests the sandbox counted on `path` while `work` ran. */
async function countDuring<T>(
  path: string,
  work: () => Promise<T>,
): Promise<{ result: T; requests: number }> {
  const before = env.sandbox.counters.get(path);
  const result = await work();
  return { result, requests: env.sandbox.counters.get(path) - before };
}

/** Every id the sandbox's lookup has for a query, read with total_pages present. */
async function allLookupIds(query: Record<string, string | number>): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const answer = await env.raw.get<{ data: number[]; pagination: { total_pages: number } }>(
      "/properties/lookup",
      { account_id: env.accountId, ...query, per_page: 200, page },
    );
    ids.push(...answer.data);
    if (page >= answer.pagination.total_pages) return ids;
  }
}

/** A fetch that rewrites query parameters of the requests to one path, e.g. a service that ignores `page`. */
function rewritingFetch(path: string, rewrite: (query: URLSearchParams) => void): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.pathname.endsWith(path)) rewrite(url.searchParams);
    return fetch(new Request(url, request));
  };
}

describe("without pagination.total_pages", () => {
  it("the sandbox strips it when told", async () => {
    env.sandbox.faults.update({ omitTotalPages: true });
    const answer = await env.raw.get<{ pagination: Record<string, unknown> }>("/accounts");
    expect(answer.pagination).not.toHaveProperty("total_pages");
    expect(answer.pagination).toMatchObject({ current_page: 1 });
  });

  it("the data layer's account list stops at the short page: one request", async () => {
    const { layer } = layerFor(env.sandbox);
    env.sandbox.faults.update({ omitTotalPages: true });
    const { result, requests } = await countDuring(ACCOUNTS, () => layer.accounts());
    expect(result.value).toEqual(accountsForClient(PRO.clientId));
    expect(requests).toBe(1);
  });

  it("pages of the size the service says it used are full: paging goes on to the empty page", async () => {
    // One account a page: both pages are full, the third is empty and ends the list.
    const onePerPage = rewritingFetch(ACCOUNTS, (query) => query.set("per_page", "1"));
    const { layer } = layerFor(env.sandbox, {}, onePerPage);
    env.sandbox.faults.update({ omitTotalPages: true });
    const { result, requests } = await countDuring(ACCOUNTS, () => layer.accounts());
    expect(result.value).toEqual(accountsForClient(PRO.clientId));
    expect(requests).toBe(accountsForClient(PRO.clientId).length + 1);
  });

  it("a service that answers page 2 with page 1 again fails with a clear error, after two requests", async () => {
    const ignoresPage = rewritingFetch(ACCOUNTS, (query) => {
      query.set("per_page", "1");
      query.set("page", "1");
    });
    const { layer } = layerFor(env.sandbox, {}, ignoresPage);
    env.sandbox.faults.update({ omitTotalPages: true });
    const before = env.sandbox.counters.get(ACCOUNTS);
    await expect(layer.accounts()).rejects.toMatchObject({
      message:
        "The service answered the request for page 2 of accounts with page 1 again: paging stopped after 1 accounts.",
    });
    // Not retried: the same answer would come again.
    expect(env.sandbox.counters.get(ACCOUNTS) - before).toBe(2);
  });

  it("RENT.LOOKUP reads every page up to the short one", async () => {
    const expected = await allLookupIds({ state: "TX" });
    expect(expected.length % 200).not.toBe(0); // the last page is short
    env.sandbox.faults.update({ omitTotalPages: true });
    const { result, requests } = await countDuring(LOOKUP, () =>
      lookup([["state=TX; max_results=10000"]], fakeInvocation()),
    );
    expect(result).toEqual([["property_id"], ...expected.map((id) => [id])]);
    expect(requests).toBe(Math.ceil(expected.length / 200));
  });

  it("RENT.LOOKUP stops once max_results ids are in hand", async () => {
    const expected = (await allLookupIds({ state: "TX" })).slice(0, 250);
    expect(expected).toHaveLength(250); // more match than are asked for
    env.sandbox.faults.update({ omitTotalPages: true });
    const { result, requests } = await countDuring(LOOKUP, () =>
      lookup([["state=TX; max_results=250"]], fakeInvocation()),
    );
    expect(result).toEqual([["property_id"], ...expected.map((id) => [id])]);
    expect(requests).toBe(2);
  });

  it("RENT.LOOKUP stops at an empty page when the last full page was the end", async () => {
    const all = await allLookupIds({});
    expect(all.length).toBeGreaterThan(400);
    const expected = all.slice(0, 400);
    env.sandbox.faults.update({ omitTotalPages: true });
    // Pages 1 and 2 full, the third empty: the service ran out exactly at a page boundary.
    const endsAfterTwoPages = rewritingFetch("/properties/lookup", (query) => {
      if (Number(query.get("page")) > 2) query.set("page", "9999");
    });
    const { layer } = layerFor(env.sandbox, {}, endsAfterTwoPages);
    const { result, requests } = await countDuring(LOOKUP, () =>
      collectPages(
        async (page) => {
          const answer = (await layer.read(LOOKUP_ROW, { page, per_page: 200 }, { accountId: ACCOUNT_ID }))
            .value;
          return { items: answer.data, pagination: answer.pagination };
        },
        { what: "property ids", perPage: 200, maxPages: 50 },
      ),
    );
    expect(result).toEqual({ items: expected, pages: 3, end: "empty_page" });
    expect(requests).toBe(3);
  });

  it("RENT.PROPERTIES reads every page up to the short one, within max_results", async () => {
    const msa = await env.raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
      account_id: env.accountId,
      query: "Dallas",
      geo_type: "MSA",
      limit: 1,
    });
    const msaId = msa.data[0]?.attributes.id as number;
    const all = await env.raw.post<{ data: { attributes: { property_id: number } }[] }>(
      "/geo_boundaries/properties",
      { account_id: env.accountId, geo_boundary_ids: [msaId], per_page: 500 },
    );
    const count = all.data.length;
    expect(count).toBeGreaterThan(40);
    expect(count).toBeLessThan(500);
    env.sandbox.faults.update({ omitTotalPages: true });
    // max_results=5000 weighs the whole assumed quota, past the share one pull may spend without asking.
    session.requireSignedIn().data.quota.configure({ maxShare: 1 });
    const { result, requests } = await countDuring(SEARCH, () =>
      properties([[msaId]], [["property_id"]], [["max_results=5000"]], undefined, fakeInvocation()),
    );
    expect(result.slice(1).map((row) => row[0])).toEqual(
      all.data.map((entry) => entry.attributes.property_id),
    );
    expect(requests).toBe(1);
  });
});

describe("collectPages", () => {
  const fullPages = async (page: number) => ({ items: [page * 10, page * 10 + 1] });

  it("fails at the hard page cap instead of sending another request", async () => {
    const asked: number[] = [];
    await expect(
      collectPages(
        (page) => {
          asked.push(page);
          return fullPages(page);
        },
        { what: "accounts", perPage: 2, maxPages: 5 },
      ),
    ).rejects.toMatchObject({
      message:
        "The service kept sending full pages of accounts: paging stopped at 5 pages (10 accounts) without reaching the end.",
    });
    expect(asked).toEqual([1, 2, 3, 4, 5]);
  });

  it("stops once max items are in hand, and believes total_pages when the service sends it", async () => {
    await expect(
      collectPages(fullPages, { what: "ids", perPage: 2, maxItems: 3, maxPages: 10 }),
    ).resolves.toEqual({ items: [10, 11, 20], pages: 2, end: "enough" });
    // A short page before the last one the service named: it serves fewer than asked, so read on.
    const shortPages = async (page: number) => ({
      items: [page],
      pagination: { current_page: page, total_pages: 3 },
    });
    await expect(collectPages(shortPages, { what: "ids", perPage: 2, maxPages: 10 })).resolves.toEqual({
      items: [1, 2, 3],
      pages: 3,
      end: "last_page",
    });
  });
});
