/**
 * Where two answers of the service state the same fact, the cells built from each must agree: the market
 * survey's comp average against the mean of its comp rows, and a property's record from property search against
 * its record from bulk details. Each answer is read on its own (an open-scale percent is judged per answer), so a
 * percent read in the wrong scale in one of them shows here as a factor of 100. Both answer variants.
 */
import { SANDBOX_VARIANTS } from "../../sandbox/variant";
import { survey } from "../../src/functions/compSetFunctions";
import { properties, property } from "../../src/functions/propertyFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

type Grid = unknown[][];

function columnOf(table: Grid, name: string): unknown[] {
  const index = (table[0] as string[]).indexOf(name);
  if (index < 0) throw new Error(`no column ${name}`);
  return table.slice(1).map((row) => row[index]);
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

describe.each(SANDBOX_VARIANTS)("answers that state the same fact agree (%s variant)", (variant) => {
  let env: SignedInSandbox;

  beforeAll(async () => {
    env = await startSignedInSandbox("demo-proplus", { variant });
  });

  afterAll(() => env.close());

  it("the survey's comp average is the mean of its comp rows, in the same units", async () => {
    const sets = await env.raw.get<{ data: { id: string }[] }>(`/accounts/${env.accountId}/comp_sets`);
    let checked = 0;
    for (const set of sets.data) {
      const table = await survey(Number(set.id), undefined, undefined, fakeInvocation());
      const names = columnOf(table, "property_name");
      const subject = columnOf(table, "subject_property");
      const comps = names.flatMap((name, row) =>
        name !== "Comp average" && subject[row] !== true ? [row] : [],
      );
      const averageRow = names.indexOf("Comp average");
      expect(averageRow).toBe(names.length - 1);
      for (const [metric, tolerance] of [
        ["avg_rent", 0.01],
        ["leased_percent", 0.0001],
        ["exposure_current", 0.0001],
        ["concession_percentage", 0.0001],
        // An average of years is shown as a year (1989, not 1989.4286): within half a year of the mean.
        ["year_built", 0.5],
      ] as const) {
        const values = columnOf(table, metric);
        const compValues = comps
          .map((row) => values[row])
          .filter((value): value is number => typeof value === "number");
        const average = values[averageRow];
        expect(typeof average).toBe("number");
        expect({
          set: set.id,
          metric,
          off: Math.abs((average as number) - mean(compValues)) <= tolerance,
        }).toEqual({
          set: set.id,
          metric,
          off: true,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it("a property's fields from property search equal its fields from bulk details", async () => {
    const fields = [
      "property_id",
      "asking_rent",
      "leased_percent",
      "exposure_percent",
      "advertised_occupancy_percent",
      "concession_percent_1_bed",
      "year_built",
    ];
    const found = await env.raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
      account_id: env.accountId,
      query: "Austin",
      geo_type: ["MSA"],
      limit: 1,
    });
    const msaId = found.data[0]?.attributes.id as number;
    const searched = await properties(
      [[msaId]],
      [[fields.join(", ")]],
      [["max_results=25"]],
      undefined,
      fakeInvocation(),
    );
    const ids = columnOf(searched, "property_id") as number[];
    expect(ids.length).toBe(25);
    const details = await property(
      ids.map((id) => [id]),
      [fields],
      fakeInvocation(),
    );
    expect(details).toEqual(searched.slice(1));
    const leased = columnOf(searched, "leased_percent").filter(
      (value): value is number => typeof value === "number",
    );
    expect(leased.length).toBeGreaterThan(10);
    // One percent convention: occupancy is a fraction, whatever scale this variant sent.
    for (const value of leased) expect(value).toBeLessThanOrEqual(1);
  });
});
