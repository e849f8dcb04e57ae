import { API_BASE_PATH } from "./client";
import type { ServiceConfig } from "./config";
import { operationPath } from "./operationPath";
import { operationById, type OperationId } from "./operations";
import { FLOOR_PLAN_BUCKET_KEYS } from "./readers/compSetReaders";
import type { operations } from "./schema";
import type { Credentials } from "./tokens";

/** A probe's JSON body, checked against the contract's types (so a value the contract drops fails to compile). */
type BodyOf<Op extends OperationId> = NonNullable<
  operations[Op]["requestBody"]
>["content"]["application/json"];

/**
 * The connection check: one request per endpoint family, each the smallest the contract allows, to learn in
 * minutes what a service (the live one, or a sandbox) accepts and in which shape it answers. It reads the raw
 * JSON rather than the add-in's typed readers, so it reports the shape variants the service used (survey item
 * `id` or `property_id`, floor plan bucket key, percent scale, pagination) instead of failing on them. The
 * pane's "Check connection" and `npm run check-service` both run it.
 */

/** The most requests one check may send (the live service allows about 100 per 5 minutes). */
export const CHECK_REQUEST_LIMIT = 15;

/** How long one request may take before the check reports it as unanswered and moves on. */
const REQUEST_TIMEOUT_MS = 20_000;

export type ProbeOutcome = "answered" | "refused" | "unreachable" | "skipped";

export interface ProbeReport {
  /** The endpoint family, in words: "Geo search". */
  readonly family: string;
  /** Method and path, e.g. "POST /v1/geo_boundaries/search"; never a secret. */
  readonly request: string;
  readonly outcome: ProbeOutcome;
  readonly status?: number;
  /** Shape variants seen in the answer, e.g. "survey item id: property_id". */
  readonly variants: readonly string[];
  /** Rate-limit headers of the answer, by their name as sent. */
  readonly rateLimitHeaders: Readonly<Record<string, string>>;
  /** For a refusal, the service's own message; for a skip, why. */
  readonly message?: string;
}

export interface ConnectionReport {
  readonly serviceUrl: string;
  readonly requestLimit: number;
  readonly requestsSent: number;
  readonly probes: readonly ProbeReport[];
}

export interface ConnectionCheckOptions {
  config: ServiceConfig;
  /** Client credentials (the token request is the first probe) or an access token (no token request). */
  credentials: Credentials;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Each probe's report as soon as it is known, for a pane or a terminal to show progress. */
  onProbe?: (probe: ProbeReport) => void;
}

/** What the check says before it sends anything. */
export function checkNotice(serviceUrl: string): string {
  return `Checking ${serviceUrl}: one small request per endpoint family, at most ${CHECK_REQUEST_LIMIT} requests in all.`;
}

interface Answer {
  status: number;
  json: unknown;
  text: string;
  headers: Headers;
}

type JsonRecord = Record<string, unknown>;

const RATE_LIMIT_HEADER = /^(x-ratelimit-|ratelimit|retry-after$)/i;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function field(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof key === "number") current = Array.isArray(current) ? current[key] : undefined;
    else current = isRecord(current) ? current[key] : undefined;
  }
  return current;
}

function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : undefined;
}

function integerOf(value: unknown): number | undefined {
  const number = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number > 0 ? number : undefined;
}

/** "fraction" when every value is at most 1 (0.97 = 97 %), "points" when any is above (97 = 97 %). */
function percentScale(label: string, values: readonly unknown[]): string[] {
  const numbers = values.filter(
    (value): value is number => typeof value === "number" && Number.isFinite(value),
  );
  if (numbers.length === 0) return [];
  return [
    `${label}: ${numbers.some((value) => Math.abs(value) > 1) ? "points (97 = 97 %)" : "fraction (0.97 = 97 %)"}`,
  ];
}

function paginationVariant(json: unknown): string {
  const pagination = field(json, "pagination");
  if (!isRecord(pagination)) return "pagination: absent";
  const total = pagination.total_pages;
  return typeof total === "number"
    ? `pagination: present (total_pages ${total})`
    : "pagination: present, without total_pages";
}

function listOrObject(label: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return [`${label}: list`];
  return [isRecord(value) ? `${label}: object` : `${label}: ${typeof value}`];
}

function tokenVariants(json: unknown): string[] {
  const token = field(json, "access_token");
  const expiresIn = field(json, "expires_in");
  return [
    typeof token === "string" && token.split(".").length === 3 ? "token: JWT" : "token: opaque",
    typeof expiresIn === "number" ? `expires_in: ${expiresIn} s` : "expires_in: absent",
  ];
}

function surveyVariants(json: unknown): string[] {
  const items = field(json, "data", "attributes", "market_survey_items");
  if (!Array.isArray(items)) return ["market_survey_items: absent"];
  const item: unknown = items[0];
  const idKey = isRecord(item) ? ["id", "property_id"].find((key) => key in item) : undefined;
  return [
    `survey item id: ${idKey ?? "absent"}`,
    ...listOrObject("amenities", field(item, "amenities")),
    ...listOrObject("concessions", field(item, "concessions")),
    ...listOrObject("fees_and_deposits", field(item, "fees_and_deposits")),
    ...percentScale(
      "percent",
      items.flatMap((entry) => [
        field(entry, "leased_percent"),
        field(entry, "advertised_occupancy_percent"),
      ]),
    ),
  ];
}

/** How history points are dated: days, or the end of each day as a UTC timestamp (the vendor's examples). */
function historyDates(point: unknown): string[] {
  const date = field(point, "collected_at");
  if (typeof date !== "string") return [];
  return [/^\d{4}-\d{2}-\d{2}$/.test(date) ? "history dates: days" : `history dates: timestamps (${date})`];
}

/** How a unit's rent change is written: a number, a signed amount ("+40.00") or dollars ("$10", the examples). */
function unitVariants(json: unknown): string[] {
  const units = field(json, "data");
  const change = Array.isArray(units)
    ? units
        .map((unit) => field(unit, "attributes", "last_rent_change"))
        .find((value) => value !== null && value !== undefined)
    : undefined;
  const form =
    change === undefined
      ? []
      : [`rent change: ${typeof change === "string" ? `text (${change})` : typeof change}`];
  return [...dataListVariants(json), paginationVariant(json), ...form];
}

function floorPlanVariants(json: unknown): string[] {
  const attributes = field(json, "data", "attributes");
  const bucketKey = FLOOR_PLAN_BUCKET_KEYS.find((key) => isRecord(attributes) && key in attributes);
  if (!bucketKey) return ["floor plan buckets: absent"];
  const buckets = field(attributes, bucketKey);
  const bucket: unknown = firstOf(buckets);
  const plans = field(bucket, "floor_plans");
  const plan: unknown = firstOf(plans);
  return [
    `floor plan buckets: ${bucketKey}`,
    isRecord(bucket) && "floor_plan_summary" in bucket
      ? "bucket summary: floor_plan_summary per bucket"
      : "bucket summary: none per bucket",
    isRecord(plan) && "asking_rent_over_time" in plan
      ? "history: _over_time arrays per plan"
      : "history: one entry per plan per day",
    ...historyDates(firstOf(field(plan, "asking_rent_over_time"))),
    ...percentScale(
      "unit_mix_percent",
      Array.isArray(plans) ? plans.map((entry) => field(entry, "unit_mix_percent")) : [],
    ),
  ];
}

function dataListVariants(json: unknown): string[] {
  const data = field(json, "data");
  return [Array.isArray(data) ? `data: list of ${data.length}` : "data: not a list"];
}

function marketVariants(json: unknown): string[] {
  const market = field(firstOf(field(json, "data")), "attributes");
  const percents = isRecord(market)
    ? Object.entries(market)
        .filter(([key]) => /(leased|occupancy)_percent/.test(key))
        .map(([, value]) => value)
    : [];
  return [...dataListVariants(json), ...percentScale("percent", percents)];
}

function propertyVariants(json: unknown): string[] {
  const property = field(firstOf(field(json, "data")), "attributes");
  return [...dataListVariants(json), ...percentScale("percent", [field(property, "leased_percent")])];
}

function forecastVariants(json: unknown): string[] {
  const series = field(json, "data", "attributes", "time_series");
  return [Array.isArray(series) ? `time_series: ${series.length} points` : "time_series: absent"];
}

function jobsVariants(json: unknown): string[] {
  const listKey = ["jobs", "data"].find((key) => Array.isArray(field(json, key)));
  return [`job list: ${listKey ?? "absent"}`, paginationVariant(json)];
}

/** The service's own words for a refusal: its JSON `message` (or `error`), else its text. */
function serviceMessage(answer: Answer): string {
  const message = field(answer.json, "message") ?? field(answer.json, "error");
  const text = typeof message === "string" && message !== "" ? message : answer.text.trim();
  if (text === "") return `HTTP ${answer.status} without a message`;
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function unreachableMessage(error: unknown, timedOut: boolean): string {
  if (timedOut) return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === "string") return `no answer (${cause.code})`;
  // A browser says only "Failed to fetch", for a wrong URL and for a service that refuses the page's origin alike.
  const text = error instanceof Error ? error.message : String(error);
  return `no answer (${text}): the URL may be wrong, the service down, or it may not allow this page's origin (CORS)`;
}

/** A probe of an operation of the table (method and path from there), or of the token endpoint (a full URL). */
type ProbeTarget =
  { operationId: OperationId; values?: Record<string, string | number> } | { method: "POST"; url: string };

type ProbeRequest = ProbeTarget & {
  family: string;
  query?: Record<string, string | number>;
  json?: unknown;
  form?: URLSearchParams;
  variants: (json: unknown) => string[];
};

/** Method and URL of a probe; the request as a person reads it: data paths under the API base, never a secret. */
function targetOf(serviceUrl: string, probe: ProbeTarget): { method: string; url: URL; shown: string } {
  if ("url" in probe) {
    const url = new URL(probe.url);
    return { method: probe.method, url, shown: url.pathname };
  }
  const operation = operationById(probe.operationId);
  const path = `${API_BASE_PATH}${operationPath(operation, probe.values)}`;
  return { method: operation.method, url: new URL(`${serviceUrl}${path}`), shown: path };
}

/** How a probe that was not sent is named: the operation's method and path template. */
function requestOf(operationId: OperationId): string {
  const operation = operationById(operationId);
  return `${operation.method} ${API_BASE_PATH}${operation.path}`;
}

/** Sends the probes one at a time, counting them against the limit, and collects their reports. */
class Prober {
  readonly probes: ProbeReport[] = [];
  sent = 0;
  token: string | undefined;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ConnectionCheckOptions) {
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  }

  skip(family: string, request: string, reason: string): void {
    this.record({ family, request, outcome: "skipped", variants: [], rateLimitHeaders: {}, message: reason });
  }

  /** The JSON of a 2xx answer, or undefined when the probe was refused, unanswered or skipped. */
  async send(probe: ProbeRequest): Promise<unknown> {
    const { method, url, shown } = targetOf(this.options.config.serviceUrl, probe);
    for (const [name, value] of Object.entries(probe.query ?? {})) url.searchParams.set(name, String(value));
    const query = Object.entries(probe.query ?? {}).map(([name, value]) => `${name}=${value}`);
    const request = `${method} ${shown}${query.length === 0 ? "" : `?${query.join("&")}`}`;
    if (this.sent >= CHECK_REQUEST_LIMIT) {
      this.skip(probe.family, request, `the check's limit of ${CHECK_REQUEST_LIMIT} requests is spent`);
      return undefined;
    }
    if (this.options.signal?.aborted) {
      this.skip(probe.family, request, "the check was cancelled");
      return undefined;
    }
    this.sent += 1;
    const answer = await this.fetchAnswer(method, url, probe);
    if ("unanswered" in answer) {
      this.record({
        family: probe.family,
        request,
        outcome: "unreachable",
        variants: [],
        rateLimitHeaders: {},
        message: answer.unanswered,
      });
      return undefined;
    }
    const rateLimitHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (RATE_LIMIT_HEADER.test(name)) rateLimitHeaders[name] = value;
    });
    const ok = answer.status >= 200 && answer.status < 300;
    this.record({
      family: probe.family,
      request,
      outcome: ok ? "answered" : "refused",
      status: answer.status,
      variants: ok ? probe.variants(answer.json) : [],
      rateLimitHeaders,
      message: ok ? undefined : serviceMessage(answer),
    });
    return ok ? answer.json : undefined;
  }

  /** The answer, or why none came (no connection, the time bound, a cancel). */
  private async fetchAnswer(
    method: string,
    url: URL,
    probe: ProbeRequest,
  ): Promise<Answer | { unanswered: string }> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), REQUEST_TIMEOUT_MS);
    const stop = () => timeout.abort();
    this.options.signal?.addEventListener("abort", stop, { once: true });
    try {
      const headers: Record<string, string> = { Accept: "application/json" };
      if (this.token) headers.Authorization = `Bearer ${this.token}`;
      if (probe.json !== undefined) headers["Content-Type"] = "application/json";
      if (probe.form) headers["Content-Type"] = "application/x-www-form-urlencoded";
      const response = await this.fetchImpl(url, {
        method,
        headers,
        body: probe.form ?? (probe.json === undefined ? undefined : JSON.stringify(probe.json)),
        signal: timeout.signal,
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = text === "" ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, json, text, headers: response.headers };
    } catch (error) {
      return {
        unanswered: unreachableMessage(error, timeout.signal.aborted && !this.options.signal?.aborted),
      };
    } finally {
      clearTimeout(timer);
      this.options.signal?.removeEventListener("abort", stop);
    }
  }

  private record(probe: ProbeReport): void {
    this.probes.push(probe);
    this.options.onProbe?.(probe);
  }
}

/** Runs the check: never throws for what the service answers; every probe ends in the report. */
export async function checkConnection(options: ConnectionCheckOptions): Promise<ConnectionReport> {
  const prober = new Prober(options);
  const { credentials } = options;

  if (credentials.kind === "client") {
    const answer = await prober.send({
      family: "Token",
      method: "POST",
      url: options.config.tokenUrl,
      form: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: credentials.clientId,
        client_secret: credentials.clientSecret,
      }),
      variants: tokenVariants,
    });
    const token = field(answer, "access_token");
    prober.token = typeof token === "string" && token !== "" ? token : undefined;
  } else if (credentials.kind === "relay") {
    prober.token = credentials.key;
    prober.skip(
      "Token",
      `POST ${new URL(options.config.tokenUrl).pathname}`,
      "a team relay key was given: the relay holds the service's token",
    );
  } else {
    prober.token = credentials.accessToken;
    prober.skip(
      "Token",
      `POST ${new URL(options.config.tokenUrl).pathname}`,
      "an access token was given, so no token request is needed",
    );
  }
  if (!prober.token) {
    prober.skip(
      "Data endpoints",
      `${API_BASE_PATH}/...`,
      "no access token: the token request did not succeed",
    );
    return reportOf(options, prober);
  }

  const accounts = await prober.send({
    family: "Accounts",
    operationId: "listAccounts",
    query: { per_page: 1 },
    variants: (json) => [...dataListVariants(json), paginationVariant(json)],
  });
  const accountId = integerOf(field(firstOf(field(accounts, "data")), "id"));

  let compSetId: number | undefined;
  if (accountId) {
    const compSets = await prober.send({
      family: "Comp sets",
      operationId: "listCompSets",
      values: { account_id: accountId },
      variants: dataListVariants,
    });
    compSetId = integerOf(field(firstOf(field(compSets, "data")), "id"));
  } else {
    prober.skip("Comp sets", requestOf("listCompSets"), "no account id (accounts did not answer)");
  }

  let propertyId: number | undefined;
  if (compSetId) {
    const survey = await prober.send({
      family: "Market survey",
      operationId: "getMarketSurvey",
      values: { comp_set_id: compSetId },
      variants: surveyVariants,
    });
    const item = firstOf(field(survey, "data", "attributes", "market_survey_items"));
    propertyId = integerOf(field(item, "id")) ?? integerOf(field(item, "property_id"));
    await prober.send({
      family: "Units",
      operationId: "listCompSetUnits",
      values: { comp_set_id: compSetId },
      query: propertyId ? { "filter[property_ids]": propertyId } : {},
      variants: unitVariants,
    });
    await prober.send({
      family: "Floor plans",
      operationId: "listCompSetFloorPlans",
      values: { comp_set_id: compSetId },
      variants: floorPlanVariants,
    });
  } else {
    for (const [family, operationId] of [
      ["Market survey", "getMarketSurvey"],
      ["Units", "listCompSetUnits"],
      ["Floor plans", "listCompSetFloorPlans"],
    ] as const) {
      prober.skip(family, requestOf(operationId), "no comp set of the account to ask about");
    }
  }

  if (!accountId) {
    for (const [family, operationId] of ACCOUNT_PROBES)
      prober.skip(family, requestOf(operationId), "no account id (accounts did not answer)");
  } else {
    const boundaries = await prober.send({
      family: "Geo search",
      operationId: "searchGeoBoundaries",
      json: {
        account_id: accountId,
        query: "*",
        geo_type: "MSA",
        limit: 1,
      } satisfies BodyOf<"searchGeoBoundaries">,
      variants: dataListVariants,
    });
    const markets = await prober.send({
      family: "Explore markets",
      operationId: "exploreMarkets",
      json: { account_id: accountId, limit: 1 } satisfies BodyOf<"exploreMarkets">,
      variants: marketVariants,
    });
    const boundaryId =
      integerOf(field(firstOf(field(boundaries, "data")), "id")) ??
      integerOf(field(firstOf(field(markets, "data")), "id"));
    if (boundaryId) {
      await prober.send({
        family: "Narratives",
        operationId: "getMarketNarratives",
        query: { account_id: accountId, geo_boundary_id: boundaryId },
        variants: dataListVariants,
      });
    } else
      prober.skip(
        "Narratives",
        requestOf("getMarketNarratives"),
        "no boundary id (geo search and explore markets did not answer)",
      );

    const lookup = await prober.send({
      family: "Property lookup",
      operationId: "lookupProperties",
      query: { account_id: accountId, per_page: 1 },
      variants: unitVariants,
    });
    propertyId ??= integerOf(firstOf(field(lookup, "data")));
    if (propertyId) {
      await prober.send({
        family: "Property bulk details",
        operationId: "getBulkPropertyDetails",
        query: { account_id: accountId, property_ids: propertyId },
        variants: propertyVariants,
      });
      await prober.send({
        family: "Forecasts",
        operationId: "getPropertyForecasts",
        values: { property_id: propertyId },
        json: {
          account_id: accountId,
          aggregations: [{ name: "rent_growth", field: "rent_growth_rate_yoy", aggregation_type: "avg" }],
          interval: "year",
        } satisfies Partial<BodyOf<"getPropertyForecasts">>,
        variants: forecastVariants,
      });
    } else {
      prober.skip(
        "Property bulk details",
        requestOf("getBulkPropertyDetails"),
        "no property id (survey and lookup did not answer)",
      );
      prober.skip(
        "Forecasts",
        requestOf("getPropertyForecasts"),
        "no property id (survey and lookup did not answer)",
      );
    }
  }

  await prober.send({
    family: "Bulk jobs",
    operationId: "listBulkJobs",
    query: { per_page: 1 },
    variants: jobsVariants,
  });
  return reportOf(options, prober);
}

const ACCOUNT_PROBES = [
  ["Geo search", "searchGeoBoundaries"],
  ["Explore markets", "exploreMarkets"],
  ["Narratives", "getMarketNarratives"],
  ["Property lookup", "lookupProperties"],
  ["Property bulk details", "getBulkPropertyDetails"],
  ["Forecasts", "getPropertyForecasts"],
] as const;

function reportOf(options: ConnectionCheckOptions, prober: Prober): ConnectionReport {
  return {
    serviceUrl: options.config.serviceUrl,
    requestLimit: CHECK_REQUEST_LIMIT,
    requestsSent: prober.sent,
    probes: prober.probes,
  };
}

/** One probe in one line: outcome, family, request, then what was learned. */
export function probeLine(probe: ProbeReport): string {
  const outcome =
    probe.outcome === "answered"
      ? `ok ${probe.status}`
      : probe.outcome === "refused"
        ? `FAILED ${probe.status}`
        : probe.outcome === "unreachable"
          ? "FAILED"
          : "skipped";
  const headers = Object.entries(probe.rateLimitHeaders).map(([name, value]) => `${name}: ${value}`);
  const details = [
    ...(probe.message === undefined
      ? []
      : [probe.outcome === "refused" ? `the service said: "${probe.message}"` : probe.message]),
    ...probe.variants,
    ...(probe.outcome === "answered" || probe.outcome === "refused"
      ? [headers.length === 0 ? "rate-limit headers: none" : `rate-limit headers: ${headers.join(", ")}`]
      : []),
  ];
  return `${outcome.padEnd(10)} ${probe.family} (${probe.request})${details.length === 0 ? "" : ` - ${details.join("; ")}`}`;
}

/** The whole report as lines of text: the pane lists them, the script prints them. */
export function reportLines(report: ConnectionReport): string[] {
  const failed = report.probes.filter(
    (probe) => probe.outcome === "refused" || probe.outcome === "unreachable",
  );
  return [
    ...report.probes.map(probeLine),
    `${report.requestsSent} of at most ${report.requestLimit} requests sent to ${report.serviceUrl}.`,
    failed.length === 0
      ? "Every endpoint family that was asked answered."
      : `Failed: ${failed.map((probe) => probe.family).join(", ")}.`,
  ];
}
