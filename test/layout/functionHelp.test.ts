/**
 * The functions' help text takes the contract's enums, defaults and ranges, and the options the functions read,
 * from where they live (scripts/functionHelp.ts renders its placeholders for functions.json and
 * docs/functions.md): the rendered text says what the contract says, a placeholder that names nothing fails,
 * and no JSDoc lists a contract enum by hand.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as schema from "../../src/api/schema";
import { CONTRACT_OPERATIONS, type ContractOperation } from "../../src/api/contractOperations";
import { renderHelp } from "../../scripts/functionHelp";
import { HEADER_CHOICES, readHeaders } from "../../src/functions/args/headers";
import { FORWARD_AGGREGATIONS, FORWARD_PERIODS } from "../../src/functions/args/forecastPeriods";
import { factsIn } from "../../src/api/fieldFacts";
import { FORECAST_WINDOW_MONTHS } from "../../src/api/contractLimits";
import { functionsMetadata, type FunctionMetadata } from "../../scripts/generateFunctionReference";

const root = path.resolve(__dirname, "..", "..");
const operation = (id: string) =>
  (CONTRACT_OPERATIONS as readonly ContractOperation[]).find((row) => row.operationId === id);

let metadata: FunctionMetadata[];
beforeAll(async () => {
  metadata = await functionsMetadata();
});

function parameterHelp(fn: string, parameter: string): string {
  const found = metadata
    .find((candidate) => candidate.id === fn)
    ?.parameters.find((p) => p.name === parameter);
  if (!found?.description) throw new Error(`RENT.${fn} has no help for ${parameter}`);
  return found.description;
}

/** Whether `text` names `word` as a word of its own (not inside a longer name). */
const names = (text: string, word: string) =>
  new RegExp(`(^|[^\\w])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^\\w]|$)`).test(text);

describe("the functions' help text", () => {
  it("gives the forecasts' intervals and their default as the contract's request has them", () => {
    for (const [fn, id] of [
      ["FORECAST", "getPropertyForecasts"],
      ["GEOFORECAST", "getGeoBoundaryForecasts"],
    ] as const) {
      const body = operation(id)?.body;
      const help = parameterHelp(fn, "interval");
      for (const value of schema.forecastIntervalValues) expect(names(help, value)).toBe(true);
      // The add-in's forward periods beside the service's buckets, and what they combine months by.
      for (const period of FORWARD_PERIODS) expect(names(help, period)).toBe(true);
      expect(parameterHelp(fn, "aggregation")).toContain(
        `A forward period takes ${FORWARD_AGGREGATIONS.slice(0, -1).join(", ")} or ${FORWARD_AGGREGATIONS.at(-1)}.`,
      );
      expect(help).toContain(`${String(body?.defaults?.interval)} (default)`);
      expect(body?.types.interval?.enum).toEqual(schema.forecastIntervalValues);
      const aggregation = parameterHelp(fn, "aggregation");
      for (const value of schema.aggregationTypeValues) expect(names(aggregation, value)).toBe(true);
    }
    // Every field a forecast request takes, its bounds said once for all.
    for (const [fn, fields] of [
      ["FORECAST", schema.propertyForecastAggregationFieldValues],
      ["GEOFORECAST", schema.boundaryForecastAggregationFieldValues],
    ] as const) {
      const help = parameterHelp(fn, "field");
      const unnamed = fields.filter((field) => !names(help, field.replace(/_(downside|upside)$/, "")));
      expect(unnamed).toEqual([]);
    }
    // Flows add up over a bucket (the contract's x-aggregate), what GEOFORECAST's help says of its fields.
    expect(parameterHelp("GEOFORECAST", "aggregation")).toMatch(/sum for absorption and deliveries/);
    expect(parameterHelp("FORECAST", "aggregation")).not.toContain("sum for");
  });

  it("gives RENT.LOOKUP's options and radius default, and RENT.BOUNDARIES' limit, from the contract", () => {
    const lookup = operation("lookupProperties");
    const help = parameterHelp("LOOKUP", "options");
    const offered = (lookup?.parameters ?? [])
      .map((parameter) => parameter.name)
      .filter((name) => !["account_id", "page", "per_page", "lat", "lng"].includes(name));
    for (const name of offered)
      expect(names(help, name) || names(help, name.replace(/_lte$/, "_gte/lte"))).toBe(true);
    const radius = lookup?.parameters.find((parameter) => parameter.name === "radius");
    expect(help).toContain(`(default ${String(radius?.default)})`);
    expect(names(help, "lat")).toBe(false);

    const search = operation("searchGeoBoundaries")?.body;
    const limit = search?.limits?.limit;
    expect(parameterHelp("BOUNDARIES", "limit")).toBe(
      `Most rows to return, ${limit?.minimum} to ${limit?.maximum} (default ${String(search?.defaults?.limit)}).`,
    );
  });

  it("gives every `headers` argument the choice the code takes when it is left out, and the other", () => {
    const helps = metadata.flatMap((fn) =>
      fn.parameters.filter((p) => p.name === "headers").map((p) => [fn.id, p.description ?? ""] as const),
    );
    expect(helps.length).toBeGreaterThan(0);
    const wrong = helps.filter(
      ([, help]) =>
        !help.startsWith(`"${readHeaders(undefined)}" (default)`) ||
        !HEADER_CHOICES.every((choice) => help.includes(`"${choice}"`)),
    );
    expect(wrong).toEqual([]);
  });

  it("renders each kind of placeholder, and refuses one that names nothing", () => {
    expect(renderHelp("${choices getPropertyForecasts.interval}.")).toBe("month (default), quarter or year.");
    expect(renderHelp("(${values SortDirection})")).toBe(`(${schema.sortDirectionValues.join(" or ")})`);
    expect(renderHelp("${range exploreMarkets.limit}")).toBe(
      `${operation("exploreMarkets")?.body?.limits?.limit?.minimum} to ${operation("exploreMarkets")?.body?.limits?.limit?.maximum}`,
    );
    expect(renderHelp('"${label market.rent_avg_t30}"')).toBe(
      `"${factsIn("market", "rent_avg_t30")?.label}"`,
    );
    expect(renderHelp("${limit FORECAST_WINDOW_MONTHS} months")).toBe(`${FORECAST_WINDOW_MONTHS} months`);
    expect(parameterHelp("GEOFORECAST", "end")).toContain(`${FORECAST_WINDOW_MONTHS} months ahead`);
    expect(() => renderHelp("${limit NO_SUCH_LIMIT}")).toThrow(/NO_SUCH_LIMIT/);
    expect(() => renderHelp("${values NoSuchSchema}")).toThrow(/NoSuchSchema/);
    expect(() => renderHelp("${default lookupProperties.nothing}")).toThrow(/lookupProperties/);
    expect(() => renderHelp("${default lookupProperties.city}")).toThrow(/no default/);
    expect(() => renderHelp("${guess lookupProperties.radius}")).toThrow(/guess/);
    expect(() => renderHelp("${values}")).toThrow(/malformed/);
  });

  it("lists no contract enum by hand in the functions' JSDoc", () => {
    const enums = (Object.entries(schema) as [string, unknown][]).filter(
      (entry): entry is [string, readonly string[]] =>
        entry[0].endsWith("Values") && Array.isArray(entry[1]) && entry[1].length >= 2,
    );
    const folder = path.join(root, "src", "functions");
    const restated: string[] = [];
    for (const file of readdirSync(folder).filter((name) => name.endsWith("Functions.ts"))) {
      const lines = readFileSync(path.join(folder, file), "utf8")
        .split("\n")
        .filter((line) => line.trimStart().startsWith("*"));
      for (const line of lines)
        for (const [name, values] of enums)
          if (values.every((value) => names(line, value)))
            restated.push(`${file}: ${name} in "${line.trim()}"`);
    }
    expect(restated).toEqual([]);
  });
});
