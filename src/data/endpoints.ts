/**
 * The reads and sends of the data layer as rows over the table of operations (src/api/operations.ts): each
 * row names its operation (method, path, cache kind and quota effect come from there, and through it from
 * the contract), the reader of its answer and how the caller's parameters become the request. `DataLayer`
 * runs any row the same way; a new endpoint is a row here and a reader in src/api/readers.
 */
import type { ContractClient, TypedAnswer } from "../api/client";
import { operationById, type Operation, type OperationId } from "../api/operations";
import type { Page } from "../api/paging";
import type { AnswerReader } from "../api/readers/answerForm";
import { floorPlansReader, marketSurveyReader } from "../api/readers/compSetReaders";
import {
  accountsReader,
  cancelledJobReader,
  compSetsReader,
  exploreMarketsReader,
  geoSearchReader,
  jobListReader,
  jobReader,
  lookupReader,
  narrativesReader,
  propertySearchReader,
  submittedJobReader,
  unitsReader,
} from "../api/readers/serviceReaders";
import type { operations } from "../api/schema";
import { PROPERTY_DETAILS, type BatchedEndpoint } from "./batchedEndpoints";

type JsonBody<Op extends OperationId> = operations[Op] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;
type ParametersOf<Op extends OperationId> = operations[Op]["parameters"];

/** What openapi-fetch takes for one operation: its path and query parameters and its JSON body, as typed. */
export interface RequestOf<Op extends OperationId> {
  params?: { path?: ParametersOf<Op>["path"]; query?: ParametersOf<Op>["query"] };
  body?: JsonBody<Op>;
}

export type QueryOf<Op extends OperationId> = NonNullable<ParametersOf<Op>["query"]>;
export type BodyOf<Op extends OperationId> = JsonBody<Op>;

/** A list answer read page by page: its items and the pagination it sent. */
export interface PagedRow<T, Item> {
  readonly what: string;
  /** Items per page: the contract's maximum for `per_page` unless the caller asks for fewer. */
  readonly perPage: number;
  /** Hard bound on requests for one list (see collectPages). */
  readonly maxPages: number;
  readonly page: (answer: T) => Page<Item>;
}

export interface Endpoint<P, T, Item = never> {
  readonly operation: Operation;
  readonly reader: AnswerReader<T>;
  /** The request from the caller's parameters and the account the call acts for (when it names one). */
  readonly request: (params: P, accountId: number | undefined) => object;
  /** Never sent again after an unclear failure: it creates something. */
  readonly sendOnce?: boolean;
  /** How many properties an answer returned, for operations that spend the bulk export quota. */
  readonly propertiesIn?: (answer: T) => number;
  /** Items of a batched row an answer carries (DataLoader's `prime`), so asking for one later costs nothing. */
  readonly primes?: (answer: T, into: PrimeInto) => Promise<void>;
  /** For lists: how pages are asked for and read. */
  readonly paging?: PagedRow<T, Item> & {
    readonly pageParams: (params: P, page: number, perPage: number) => P;
  };
}

/** Stores a batched row's items that an answer of another row carried, under the caller's parameters. */
export type PrimeInto = <P, I, V>(
  row: BatchedEndpoint<P, I, V>,
  params: P,
  entries: readonly (readonly [I, V])[],
) => Promise<void>;

/** A row: the operation's facts from the table, the rest from the arguments, typed by the operation. */
function row<Op extends OperationId, P, T, Item = never>(
  operationId: Op,
  parts: Omit<Endpoint<P, T, Item>, "operation" | "request"> & {
    request: (params: P, accountId: number | undefined) => RequestOf<Op>;
  },
): Endpoint<P, T, Item> {
  return { operation: operationById(operationId), ...parts };
}

/** The contract's maximum for an operation's `per_page` query parameter. */
function largestPage(operationId: OperationId): number {
  const perPage = operationById(operationId).parameters.find((parameter) => parameter.name === "per_page");
  if (perPage?.maximum === undefined)
    throw new Error(`${operationId} has no per_page maximum in the contract`);
  return perPage.maximum;
}

/** Sends one row's request with the typed client: method and path as the table has them. */
export function sendOperation<T>(
  api: ContractClient,
  operation: Operation,
  init: object,
): Promise<TypedAnswer<T>> {
  const request = api.request as unknown as (
    method: string,
    path: string,
    init: object,
  ) => Promise<TypedAnswer<T>>;
  return request(operation.method, operation.path, init);
}

const withAccount = <B extends object>(body: B, accountId: number | undefined) => ({
  ...body,
  account_id: accountId as number,
});

export type GeoSearchBody = Omit<BodyOf<"searchGeoBoundaries">, "account_id">;
export type PropertySearchBody = Omit<BodyOf<"searchProperties">, "account_id">;
export type LookupQuery = Omit<QueryOf<"lookupProperties">, "account_id">;
export type UnitFilters = QueryOf<"listCompSetUnits">;
export type FloorPlanFilters = QueryOf<"listCompSetFloorPlans">;
export type ExploreMarketsQuery = Omit<BodyOf<"exploreMarkets">, "account_id">;
export type CreateJobBody = BodyOf<"createBulkJob">;
type AccountsPage = typeof accountsReader extends AnswerReader<infer Page> ? Page : never;
export type Account = AccountsPage["data"][number];

/** Every account the sign-in may act for: read page by page, the largest pages the contract allows. */
export const ACCOUNTS = row("listAccounts", {
  reader: accountsReader,
  request: (page: { page?: number; per_page?: number }) => ({ params: { query: page } }),
  paging: {
    what: "accounts",
    perPage: largestPage("listAccounts"),
    // 100 pages of the largest size is far past any client's accounts.
    maxPages: 100,
    page: (answer: AccountsPage) => ({ items: answer.data, pagination: answer.pagination }),
    pageParams: (_, page, perPage) => ({ page, per_page: perPage }),
  },
});

export const COMP_SETS = row("listCompSets", {
  reader: compSetsReader,
  request: (_: Record<string, never>, accountId) => ({
    params: { path: { account_id: accountId as number } },
  }),
});

/**
 * A comp set's reads name no account at the service, but the answer is the account's: the key names the
 * account the call acts for, as every other account's read does, so no other account's cells share it.
 */
export const MARKET_SURVEY = row("getMarketSurvey", {
  reader: marketSurveyReader,
  request: ({ compSetId }: { compSetId: number }) => ({ params: { path: { comp_set_id: compSetId } } }),
});

export const UNITS = row("listCompSetUnits", {
  reader: unitsReader,
  request: ({ compSetId, filters }: { compSetId: number; filters: UnitFilters }) => ({
    params: { path: { comp_set_id: compSetId }, query: filters },
  }),
});

export const FLOOR_PLANS = row("listCompSetFloorPlans", {
  reader: floorPlansReader,
  request: ({ compSetId, filters }: { compSetId: number; filters: FloorPlanFilters }) => ({
    params: { path: { comp_set_id: compSetId }, query: filters },
  }),
});

export const GEO_SEARCH = row("searchGeoBoundaries", {
  reader: geoSearchReader,
  request: (body: GeoSearchBody, accountId) => ({ body: withAccount(body, accountId) }),
});

type PropertySearchAnswer = typeof propertySearchReader extends AnswerReader<infer A> ? A : never;
/** Property search: its records are property details' records, so each is kept for RENT.PROPERTY too. */
export const PROPERTY_SEARCH = row("searchProperties", {
  reader: propertySearchReader,
  request: (body: PropertySearchBody, accountId) => ({ body: withAccount(body, accountId) }),
  propertiesIn: (answer) => answer.data.length,
  primes: (answer, into) =>
    into(
      PROPERTY_DETAILS,
      {},
      answer.data.map((record) => [Number(record.id), record.attributes] as const),
    ),
  paging: {
    what: "properties",
    perPage: Number.POSITIVE_INFINITY,
    // A search ends at the caller's max_results, which bounds the pages (readAll).
    maxPages: Number.POSITIVE_INFINITY,
    page: (answer: PropertySearchAnswer) => ({
      items: answer.data,
      pagination: answer.pagination,
    }),
    pageParams: (body, page, perPage) => ({ ...body, page, per_page: perPage }),
  },
});

type LookupAnswer = typeof lookupReader extends AnswerReader<infer A> ? A : never;
export const LOOKUP = row("lookupProperties", {
  reader: lookupReader,
  request: (query: LookupQuery, accountId) => ({ params: { query: withAccount(query, accountId) } }),
  paging: {
    what: "property ids",
    perPage: largestPage("lookupProperties"),
    maxPages: Number.POSITIVE_INFINITY,
    page: (answer: LookupAnswer) => ({ items: answer.data, pagination: answer.pagination }),
    pageParams: (query, page, perPage) => ({ ...query, page, per_page: perPage }),
  },
});

/** A boundary's market narratives. */
export const NARRATIVES = row("getMarketNarratives", {
  reader: narrativesReader,
  request: ({ boundaryId }: { boundaryId: number }, accountId) => ({
    params: { query: { account_id: accountId as number, geo_boundary_id: boundaryId } },
  }),
});

/** A market comparison table (sort, limit, filters) as the service ranks it. */
export const EXPLORE_MARKETS = row("exploreMarkets", {
  reader: exploreMarketsReader,
  request: (query: ExploreMarketsQuery, accountId) => ({ body: withAccount(query, accountId) }),
});

export const SUBMIT_JOB = row("createBulkJob", {
  reader: submittedJobReader,
  request: (body: CreateJobBody) => ({ body }),
  sendOnce: true,
});

/** One page of the caller's export jobs, newest first. */
export const JOBS = row("listBulkJobs", {
  reader: jobListReader,
  request: (query: { page: number; per_page: number }) => ({ params: { query } }),
});

export const JOB = row("getBulkJob", {
  reader: jobReader,
  request: (jobId: string) => ({ params: { path: { job_id: jobId } } }),
});

export const CANCEL_JOB = row("cancelBulkJob", {
  reader: cancelledJobReader,
  request: (jobId: string) => ({ params: { path: { job_id: jobId } } }),
});
