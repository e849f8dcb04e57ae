/**
 * Whatever a person types into a RENT formula, the cell ends with a value or a CustomFunctions.Error:
 * never another exception, never a hang. fast-check throws arbitrary arguments (and near-miss words) at
 * every function, against the real sandbox.
 */
import fc from "fast-check";
import * as accountFunctions from "../../src/functions/accountFunctions";
import { setCellTimeout, DEFAULT_CELL_TIMEOUT_MS } from "../../src/functions/cellCall";
import * as compSetFunctions from "../../src/functions/compSetFunctions";
import * as forecastFunctions from "../../src/functions/forecastFunctions";
import * as geoFunctions from "../../src/functions/geoFunctions";
import * as marketFunctions from "../../src/functions/marketFunctions";
import * as propertyFunctions from "../../src/functions/propertyFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

type CellFunction = (...args: unknown[]) => Promise<unknown>;

const catalogue: [string, CellFunction][] = Object.entries({
  ...accountFunctions,
  ...compSetFunctions,
  ...forecastFunctions,
  ...geoFunctions,
  ...marketFunctions,
  ...propertyFunctions,
}).filter(([, exported]) => typeof exported === "function") as unknown as [string, CellFunction][];

const words = fc.constantFrom(
  "MSA",
  "msa",
  "Austin",
  "asking_rent",
  "rent_avg_t30",
  "rent_growth_yoy",
  "occupancy_percent",
  "month",
  "quarter",
  "avg",
  "all",
  "*",
  "2026-01-31",
  "2026-02-30",
  "bedrooms=2",
  "limit=5; direction=asc",
  "max_results=3",
  "unit_styles=renovated",
  "x=1",
  '{"type":"Polygon","coordinates":[]}',
  "{not json",
  "1,2,3",
  "",
  " ",
  "TRUE",
);
/** Ids that exist in the sandbox's seed-1 data (a comp set, an MSA, a submarket, properties), so calls reach it. */
const knownIds = fc.constantFrom(10001, 1810, 1813, 116723, 116724, 118638);
const scalar = fc.oneof(
  knownIds,
  knownIds,
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer({ min: -5, max: 130_000 }),
  fc.double({ noNaN: false }),
  fc.string({ maxLength: 12 }),
  words,
);
const grid = fc.array(fc.array(scalar, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 });
const argument = fc.oneof(scalar, grid);

let env: SignedInSandbox;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-proplus");
  setCellTimeout(10_000);
});

afterAll(async () => {
  setCellTimeout(DEFAULT_CELL_TIMEOUT_MS);
  await env.close();
});

it("covers every function of the catalogue", () => {
  expect(catalogue.map(([name]) => name).sort()).toEqual(
    [
      "accounts",
      "boundaries",
      "boundary",
      "compSets",
      "floorPlanHistory",
      "floorPlans",
      "forecast",
      "geoForecast",
      "lookup",
      "market",
      "markets",
      "narrative",
      "properties",
      "property",
      "survey",
      "units",
    ].sort(),
  );
});

/** Functions that returned a value at least once: the fuzzing reached the service, not only argument checks. */
const succeeded = new Set<string>();

it.each(catalogue)(
  "%s ends with a value or a cell error for any arguments",
  async (name, fn) => {
    await fc.assert(
      fc.asyncProperty(fc.array(argument, { minLength: 0, maxLength: fn.length }), async (args) => {
        const padded = Array.from({ length: fn.length - 1 }, (_, index) => args[index]);
        try {
          await fn(...padded, fakeInvocation());
          succeeded.add(name);
        } catch (error) {
          expect(error).toBeInstanceOf(CustomFunctions.Error);
          const code = (error as CustomFunctions.Error).code;
          expect(["#VALUE!", "#N/A"]).toContain(code);
          expect((error as CustomFunctions.Error).message).toBeTruthy();
        }
      }),
      { numRuns: 40 },
    );
  },
  120_000,
);

it("reached the service with valid arguments along the way", () => {
  expect(succeeded.size).toBeGreaterThanOrEqual(5);
});
