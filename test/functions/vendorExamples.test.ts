import type { SandboxVariant } from "../../sandbox/variant";
import { isoToSerial } from "../../src/tables/excelDates";
import { boundary } from "../../src/functions/geoFunctions";
import { floorPlans, units } from "../../src/functions/compSetFunctions";
import { market } from "../../src/functions/marketFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

// The forms of the vendor's API reference examples (api-notes, third pass), read by the functions as the same
// facts whichever form the service writes: the `examples` variant answers in them, the others as live code saw.

type Plan = Record<string, unknown> & {
  property_id: number;
  asking_rent: number;
  asking_rent_change: number;
  unit_count: number;
  asking_rent_over_time: { collected_at: string }[];
};
type Buckets = { floor_plans: Plan[] }[];
type FloorPlansBody = {
  data: {
    attributes: {
      collected_at_dates: string[];
      floor_plans_by_bed_bath?: Buckets;
      floor_plans_by_bed?: Buckets;
    };
  };
};

function column(table: unknown[][], name: string): unknown[] {
  const index = (table[0] as string[]).findIndex(
    (header) => header === name || header.startsWith(`${name} (`),
  );
  if (index < 0) throw new Error(`no column ${name} in ${String(table[0])}`);
  return table.slice(1).map((row) => row[index]);
}

const noOptions = [undefined, undefined, undefined, undefined, undefined] as const;

/** The vendor's examples beside the two forms live code saw. */
const VARIANTS: SandboxVariant[] = ["examples", "documented", "alternate"];

describe.each(VARIANTS)("the vendor's documented forms against the %s variant", (variant) => {
  let env: SignedInSandbox;
  let compSetId: number;

  beforeAll(async () => {
    env = await startSignedInSandbox("demo-proplus", { variant });
    const sets = await env.raw.get<{ data: { id: string }[] }>(`/accounts/${env.accountId}/comp_sets`);
    compSetId = Number(sets.data[0]?.id);
  });

  afterAll(() => env.close());

  async function rawPlans(query: Record<string, string> = {}) {
    const body = await env.raw.get<FloorPlansBody>(`/comp_sets/${compSetId}/floor_plans`, query);
    const { attributes } = body.data;
    const buckets = attributes.floor_plans_by_bed_bath ?? attributes.floor_plans_by_bed ?? [];
    return { days: attributes.collected_at_dates, plans: buckets.flatMap((bucket) => bucket.floor_plans) };
  }

  it("shows a plan's change percent and its unit mix, sent in different scales in one record, as fractions", async () => {
    const { plans } = await rawPlans();
    const table = await floorPlans(compSetId, ...noOptions, fakeInvocation());
    const changes = column(table, "asking_rent_change_percent");
    const mixes = column(table, "unit_mix_percent");
    const unitsOf = new Map<number, number>();
    for (const plan of plans)
      unitsOf.set(plan.property_id, (unitsOf.get(plan.property_id) ?? 0) + plan.unit_count);
    // The facts the percents state, from the plan's dollars and counts: -28.5 on 1,869.83 is -0.015 (-1.5 %).
    const changeOf = (plan: Plan) => plan.asking_rent_change / (plan.asking_rent - plan.asking_rent_change);
    const shareOf = (plan: Plan) => plan.unit_count / (unitsOf.get(plan.property_id) ?? 1);
    expect(plans.some((plan) => Math.abs(changeOf(plan)) > 0.001)).toBe(true);
    plans.forEach((plan, index) => {
      expect(Math.abs(Number(changes[index]) - changeOf(plan))).toBeLessThan(0.0002);
      expect(Math.abs(Number(mixes[index]) - shareOf(plan))).toBeLessThan(0.0002);
    });
  });

  it("dates each history point on its day, whether the service writes the day or the end of it in UTC", async () => {
    const { days, plans } = await rawPlans({ "filter[collected_at_gte]": "2000-01-01" });
    const pointDays = new Set(
      plans.flatMap((plan) => plan.asking_rent_over_time.map((point) => point.collected_at.slice(0, 10))),
    );
    expect([...pointDays].sort()).toEqual([...days].sort());
    const table = await floorPlans(
      compSetId,
      isoToSerial("2000-01-01"),
      undefined,
      undefined,
      undefined,
      undefined,
      fakeInvocation(),
    );
    const collected = [...new Set(column(table, "collected_at"))];
    expect(collected.sort()).toEqual(days.map((day) => isoToSerial(day)).sort());
  });

  it("reads a unit's rent changes as amounts, whether signed (+40.00) or in dollars ($10)", async () => {
    const raw = await env.raw.get<{ data: { attributes: Record<string, unknown> }[] }>(
      `/comp_sets/${compSetId}/units`,
    );
    const sent = raw.data.map((unit) => unit.attributes.last_rent_change);
    const texts = sent.filter((value): value is string => typeof value === "string");
    expect(texts.length).toBeGreaterThan(0);
    const table = await units(compSetId, ...noOptions, undefined, fakeInvocation());
    const amount = (value: unknown) =>
      typeof value === "string" ? Number(value.replace(/[$+,]/g, "")) : (value ?? "");
    expect(column(table, "last_rent_change")).toEqual(sent.map(amount));
  });

  it("shows when a concession changed as its timestamp, and leaves the service's words for it out", async () => {
    const raw = await env.raw.get<{ data: { attributes: Record<string, unknown> }[] }>(
      `/comp_sets/${compSetId}/units`,
    );
    const concessions = raw.data.map(
      (unit) => unit.attributes.concessions as { updated_at: string; updated_at_formatted: string } | null,
    );
    expect(concessions.some((concession) => concession !== null)).toBe(true);
    const table = await units(compSetId, ...noOptions, undefined, fakeInvocation());
    // "8 hours ago" (the vendor's example) is wrong once kept in a cell; the timestamp it words stays right.
    expect(column(table, "concessions_updated_at")).toEqual(
      concessions.map((concession) => (concession ? isoToSerial(concession.updated_at) : "")),
    );
    const words = new Set(concessions.flatMap((concession) => concession?.updated_at_formatted ?? []));
    expect(table.flat().filter((cell) => words.has(cell as string))).toEqual([]);
  });

  it("resolves an MSA by its city, its short name or the whole name the service gives it", async () => {
    const raleigh = env.sandbox
      .dataset()
      .geography.boundaries.find((area) => area.geoType === "MSA" && area.shortName === "Raleigh");
    const found = await env.raw.post<{
      data: { attributes: { id: number; name: string; geo_type: string } }[];
    }>("/geo_boundaries/search", { account_id: env.accountId, query: "Raleigh", limit: 2 });
    // The MSA first, its city (a CensusPlace) after it.
    expect(found.data.map((entry) => entry.attributes.geo_type)).toEqual(["MSA", "CensusPlace"]);
    const serviceName = found.data[0]?.attributes.name ?? "";
    for (const name of ["Raleigh", "Raleigh, NC", "Raleigh-Cary, NC", serviceName]) {
      await expect(market([[name]], [["id"]], undefined, fakeInvocation())).resolves.toEqual([[raleigh?.id]]);
    }
    await expect(boundary(serviceName, "MSA", fakeInvocation())).resolves.toBe(raleigh?.id);
  });
});
