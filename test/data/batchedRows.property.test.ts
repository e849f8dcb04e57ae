/**
 * Each batched row reads back the requests it makes and assembles the answers it reads (fast-check, per row):
 * for any parameters and items, the row's own request split by the row gives them back
 * (`splitRequest(request(params, items)) = (params, items)`), and the answer assembled from any values per item
 * gives those values back when the row reads it. The team relay relies on both: a person's request is read by
 * the row, merged with others', and answered in the contract's shape from the items.
 */
import fc from "fast-check";
import { matchOperation, type OperationRequest } from "../../src/api/operations";
import {
  aggregationTypeValues,
  boundaryForecastAggregationFieldValues,
  forecastIntervalValues,
  marketGeoTypeValues,
  propertyForecastAggregationFieldValues,
} from "../../src/api/schema";
import {
  BATCHED_ROWS,
  BOUNDARY_FORECAST,
  MARKET_METRICS,
  PROPERTY_DETAILS,
  PROPERTY_FORECAST,
  aggregationId,
  type BatchedEndpoint,
  type ForecastAggregation,
  type MarketAttributes,
  type PropertyAttributes,
} from "../../src/data/batchedEndpoints";

const ACCOUNT = 100;

interface SentRequest {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
}

/** The request a row sends for `items`, as the relay receives it (method, path, query, JSON body parsed). */
async function requestOf<P, I, V>(
  row: BatchedEndpoint<P, I, V>,
  params: P,
  items: I[],
): Promise<OperationRequest> {
  let sent: SentRequest | undefined;
  await row
    .fetch(
      (_reader, request) => {
        sent = request as SentRequest;
        throw new Error("captured");
      },
      params,
      items,
      ACCOUNT,
    )
    .catch(() => undefined);
  const request = sent as SentRequest;
  const path = row.operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(request.params?.path?.[name])),
  );
  const query = new URLSearchParams(
    Object.entries(request.params?.query ?? {}).map(([name, value]) => [name, String(value)]),
  ).toString();
  const body = request.body === undefined ? undefined : JSON.parse(JSON.stringify(request.body));
  return matchOperation(row.operation.method, path, query, body);
}

/** What the row reads from an answer, the answer given as it is. */
function readBack<P, I, V>(row: BatchedEndpoint<P, I, V>, params: P, items: I[], answer: unknown) {
  return row.fetch(async () => answer as never, params, items, ACCOUNT);
}

/** Both round trips of a row over arbitrary parameters, items and values. */
function roundTrips<P, I, V>(
  row: BatchedEndpoint<P, I, V>,
  params: fc.Arbitrary<P>,
  items: fc.Arbitrary<I[]>,
  valuesFor: (items: I[]) => fc.Arbitrary<V[]>,
) {
  test(`${row.operation.operationId}: its own request splits back into its parameters and items`, async () => {
    await fc.assert(
      fc.asyncProperty(params, items, async (given, asked) => {
        const split = row.splitRequest(await requestOf(row, given, asked));
        expect(split).toBeDefined();
        expect(JSON.parse(JSON.stringify(split?.params))).toEqual(JSON.parse(JSON.stringify(given)));
        expect(split?.items.map(row.itemId)).toEqual(asked.map(row.itemId));
      }),
      { numRuns: 60 },
    );
  });

  test(`${row.operation.operationId}: an assembled answer reads back as its items' values`, async () => {
    await fc.assert(
      fc.asyncProperty(
        params,
        items.chain((asked) => fc.tuple(fc.constant(asked), valuesFor(asked))),
        async (given, [asked, values]) => {
          const byId = new Map(asked.map((item, index) => [row.itemId(item), values[index] as V]));
          const answer = row.assembleAnswer(given, asked, (item) => byId.get(row.itemId(item)));
          const read = await readBack(row, given, asked, JSON.parse(JSON.stringify(answer)));
          expect(new Map([...read].map(([id, value]) => [id, value]))).toEqual(byId);
        },
      ),
      { numRuns: 60 },
    );
  });
}

const ids = (max: number) =>
  fc.uniqueArray(fc.integer({ min: 1, max: 2_000_000_000 }), { minLength: 1, maxLength: max });

describe("property details", () => {
  roundTrips(PROPERTY_DETAILS, fc.constant({}), ids(PROPERTY_DETAILS.maxPerCall), (asked) =>
    // Only the id is read back; the rest of a property's attributes passes through untouched.
    fc.tuple(
      ...asked.map(
        (id) =>
          fc.record({
            id: fc.constant(id),
            property_name: fc.string(),
          }) as unknown as fc.Arbitrary<PropertyAttributes>,
      ),
    ),
  );
});

describe("market metrics", () => {
  const options = fc.record(
    {
      geoType: fc.constantFrom(...marketGeoTypeValues),
      propertyFilters: fc.record({ year_built_gte: fc.integer({ min: 1900, max: 2030 }) }),
    },
    { requiredKeys: [] },
  );
  roundTrips(MARKET_METRICS, options, ids(MARKET_METRICS.maxPerCall), (asked) =>
    fc.tuple(
      ...asked.map(
        (id) =>
          // Only the id (and the count the answer is ranked by) is read back; the rest passes through untouched.
          fc.record({
            id: fc.constant(id),
            property_count_total: fc.nat({ max: 100_000 }),
          }) as unknown as fc.Arbitrary<MarketAttributes>,
      ),
    ),
  );
});

const isoDate = fc
  .date({ min: new Date("2020-01-01"), max: new Date("2035-12-31"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

function forecastParams(): fc.Arbitrary<Parameters<typeof PROPERTY_FORECAST.fetch>[1]> {
  return fc.record(
    {
      id: fc.integer({ min: 1, max: 2_000_000_000 }),
      interval: fc.constantFrom(...forecastIntervalValues),
      offset: fc
        .tuple(fc.constantFrom("", "+", "-"), fc.integer({ min: 0, max: 999 }))
        .map(([sign, days]) => `${sign}${days}d`),
      start: isoDate,
      end: isoDate,
      useRentValue: fc.boolean(),
      useSubmarketFallback: fc.boolean(),
    },
    { requiredKeys: ["id", "interval", "offset", "useRentValue", "useSubmarketFallback"] },
  );
}

/** Series named as the row names them in its calls (the relay's own items carry the person's names). */
function aggregations(fields: readonly string[]): fc.Arbitrary<ForecastAggregation[]> {
  return fc.uniqueArray(
    fc
      .record({
        field: fc.constantFrom(...fields),
        aggregation_type: fc.constantFrom(...aggregationTypeValues),
      })
      .map((aggregation) => ({
        name: aggregationId(aggregation as ForecastAggregation),
        ...aggregation,
      })) as fc.Arbitrary<ForecastAggregation>,
    { minLength: 1, maxLength: PROPERTY_FORECAST.maxPerCall, selector: aggregationId },
  );
}

/** One series per aggregation over the same buckets, as one forecast answer carries them. */
const series = (asked: ForecastAggregation[]) =>
  fc.uniqueArray(isoDate, { minLength: 1, maxLength: 6 }).chain((dates) =>
    fc.tuple(
      ...asked.map(() =>
        fc.tuple(
          ...dates.map((date) =>
            fc.record({
              date: fc.constant(date),
              value: fc.option(
                fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => value + 0),
                { nil: null },
              ),
            }),
          ),
        ),
      ),
    ),
  );

describe("property forecasts", () => {
  roundTrips(
    PROPERTY_FORECAST,
    forecastParams(),
    aggregations(propertyForecastAggregationFieldValues),
    series,
  );
});

describe("boundary forecasts", () => {
  roundTrips(
    BOUNDARY_FORECAST,
    forecastParams(),
    aggregations(boundaryForecastAggregationFieldValues),
    series,
  );
});

test("every batched row of the table is tested here", () => {
  expect(BATCHED_ROWS.map((row) => row.operation.operationId).sort()).toEqual(
    ["exploreMarkets", "getBulkPropertyDetails", "getGeoBoundaryForecasts", "getPropertyForecasts"].sort(),
  );
});
