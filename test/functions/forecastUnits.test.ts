/**
 * Forecast cells in the field catalogue's units (openapi.yaml x-field-units): occupancy, which the service sends
 * in points, is a fraction under Excel's % like every percent; deliveries, units per month, add up over a
 * quarter when no aggregation is named, so a quarter shows the quarter's deliveries and not a monthly average.
 */
import { geoForecast } from "../../src/functions/forecastFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

type Series = { date: string; values: Record<string, number | null> }[];

let env: SignedInSandbox;
let msaId: number;

const serviceSeries = async (field: string, aggregation: string, interval: string) =>
  (
    await env.raw.post<{ data: { attributes: { time_series: Series } } }>(
      `/geo_boundary/${msaId}/forecasts`,
      {
        account_id: env.accountId,
        aggregations: [{ name: field, field, aggregation_type: aggregation }],
        interval,
      },
    )
  ).data.attributes.time_series.map((row) => row.values[field]);

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro");
  const found = await env.raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    query: "Austin",
    geo_type: ["MSA"],
    limit: 1,
  });
  msaId = found.data[0]?.attributes.id as number;
  Object.assign(globalThis, { Office: { context: { requirements: { isSetSupported: () => true } } } });
});

afterAll(async () => {
  delete (globalThis as { Office?: unknown }).Office;
  await env.close();
});

const cellsOf = (field: string, interval: string) =>
  geoForecast(
    msaId,
    [[field]],
    undefined,
    interval,
    undefined,
    undefined,
    undefined,
    undefined,
    fakeInvocation(),
  );

it("adds up a quarter's deliveries when no aggregation is named", async () => {
  const summed = await serviceSeries("deliveries", "sum", "quarter");
  const averaged = await serviceSeries("deliveries", "avg", "quarter");
  const cells = (await cellsOf("deliveries", "quarter")).slice(1).map((row) => row[1]);
  const values = cells.map((cell) => (cell as { basicValue: number }).basicValue);
  expect(values).toEqual(summed);
  expect(values).not.toEqual(averaged);
});

it("shows occupancy as a fraction under Excel's %: the value times 100 is the service's points", async () => {
  const points = await serviceSeries("occupancy", "avg", "month");
  const cells = (await cellsOf("occupancy", "month")).slice(1).map((row) => row[1]);
  expect(cells.length).toBe(points.length);
  for (const [index, cell] of cells.entries()) {
    const { basicValue, numberFormat } = cell as { basicValue: number; numberFormat: string };
    expect(numberFormat).toBe("0.00%");
    expect(basicValue * 100).toBeCloseTo(points[index] as number, 8);
  }
});
