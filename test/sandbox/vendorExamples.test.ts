import { compSetsOf } from "../../sandbox/data/compSets";
import { datasetFor } from "../../sandbox/data/dataset";
import type { SandboxVariant } from "../../sandbox/variant";
import { ACCOUNT, startTestSandbox } from "./support/fixtures";

// The sandbox answers the facts of the vendor's API reference examples (api-notes, third pass): in their exact
// forms in the `examples` variant, and in the default wherever the notes contradict what it answered before.

const compSet = compSetsOf(datasetFor(1, 20_000)).find((set) => set.accountId === ACCOUNT.pro);
if (!compSet) throw new Error("no comp set for the pro account");

type Plan = Record<string, unknown> & {
  asking_rent: number;
  asking_rent_change: number;
  asking_rent_change_percent: number;
  unit_mix_percent: number;
  asking_rent_over_time: { collected_at: string; value: number | null }[];
};
type Bucket = { floor_plans: Plan[]; floor_plan_summary: Record<string, unknown> };
type Attributes = Record<string, unknown>;

async function started(variant: SandboxVariant) {
  const t = await startTestSandbox({ variant });
  const get = async <T>(path: string) => {
    const response = await t.client.as<T>("demo-pro", "GET", `/v1${path}`);
    expect(response.status).toBe(200);
    return response.body;
  };
  const post = async <T>(path: string, body: object) => {
    const response = await t.client.as<T>("demo-pro", "POST", `/v1${path}`, { json: body });
    expect(response.status).toBe(200);
    return response.body;
  };
  return { t, get, post };
}

describe.each<SandboxVariant>(["examples", "documented"])("the %s variant", (variant) => {
  let sandbox: Awaited<ReturnType<typeof started>>;

  beforeAll(async () => {
    sandbox = await started(variant);
  });

  afterAll(() => sandbox.t.sandbox.close());

  async function buckets(query = ""): Promise<Bucket[]> {
    const body = await sandbox.get<{ data: { attributes: { floor_plans_by_bed_bath: Bucket[] } } }>(
      `/comp_sets/${compSet?.id}/floor_plans${query}`,
    );
    return body.data.attributes.floor_plans_by_bed_bath;
  }

  it("writes a plan's change percents in points and its unit mix as a fraction, in one record", async () => {
    const plans = (await buckets()).flatMap((bucket) => bucket.floor_plans);
    const moved = plans.filter((plan) => plan.asking_rent_change !== 0);
    expect(moved.length).toBeGreaterThan(0);
    for (const plan of moved) {
      const points = (plan.asking_rent_change / (plan.asking_rent - plan.asking_rent_change)) * 100;
      expect(Math.abs(plan.asking_rent_change_percent - points)).toBeLessThan(0.02);
    }
    expect(plans.every((plan) => plan.unit_mix_percent > 0 && plan.unit_mix_percent <= 1)).toBe(true);
  });

  it("shapes each bucket's floor_plan_summary like a plan: its property, every figure, its own history", async () => {
    const [bucket] = await buckets("?filter[collected_at_gte]=2026-03-13");
    const plan = bucket?.floor_plans[0];
    if (!plan) throw new Error("no plan in the first bucket");
    expect(Object.keys(bucket?.floor_plan_summary ?? {}).sort()).toEqual(Object.keys(plan).sort());
    expect(bucket?.floor_plan_summary).toMatchObject({
      property_id: plan.property_id,
      property_name: plan.property_name,
      subject_property: plan.subject_property,
      asking_rent_over_time: plan.asking_rent_over_time.map((point) => ({
        collected_at: point.collected_at,
        value: expect.any(Number),
      })),
    });
  });

  it("names a survey item's property type with a property-type word, not a building type", async () => {
    const body = await sandbox.get<{ data: { attributes: { market_survey_items: Attributes[] } } }>(
      `/comp_sets/${compSet?.id}/market_survey`,
    );
    const words =
      variant === "examples"
        ? ["standard", "student", "senior", "affordable", "built_to_rent"]
        : ["Conventional", "Student", "Senior", "Affordable", "Built to Rent"];
    const types = body.data.attributes.market_survey_items.map((item) => item.apartmentiq_property_type);
    expect(words).toEqual(expect.arrayContaining([...new Set(types)]));
  });
});

describe("a property by id, which the contract does not offer", () => {
  let sandbox: Awaited<ReturnType<typeof started>>;

  beforeAll(async () => {
    sandbox = await started("documented");
  });

  afterAll(() => sandbox.t.sandbox.close());

  it("answers 403 to a signed-in caller without access to it, as live, and 401 without a token", async () => {
    const asked = (path: string) =>
      sandbox.t.client.as("demo-proplus", "GET", path, { outsideContract: true });
    await expect(asked("/v1/properties/100001")).resolves.toMatchObject({ status: 403 });
    await expect(asked("/v1/properties")).resolves.toMatchObject({ status: 404 });
    await expect(
      sandbox.t.client.request("GET", "/v1/properties/100001", { outsideContract: true }),
    ).resolves.toMatchObject({ status: 401 });
  });
});

describe("the examples variant writes the vendor's forms", () => {
  let sandbox: Awaited<ReturnType<typeof started>>;

  beforeAll(async () => {
    sandbox = await started("examples");
  });

  afterAll(() => sandbox.t.sandbox.close());

  it("dates history points as the end of their day in UTC", async () => {
    const body = await sandbox.get<{ data: { attributes: { floor_plans_by_bed_bath: Bucket[] } } }>(
      `/comp_sets/${compSet?.id}/floor_plans?filter[collected_at_gte]=2026-03-14`,
    );
    const [plan] = body.data.attributes.floor_plans_by_bed_bath.flatMap((bucket) => bucket.floor_plans);
    expect(plan?.asking_rent_over_time.map((point) => point.collected_at)).toEqual([
      "2026-03-14T23:59:59.999Z",
      "2026-03-15T23:59:59.999Z",
    ]);
  });

  it("writes a unit's rent changes as dollar texts and when its concession changed as a relative phrase", async () => {
    const body = await sandbox.get<{ data: { attributes: Attributes }[] }>(`/comp_sets/${compSet?.id}/units`);
    const changes = body.data.flatMap(({ attributes }) => [
      attributes.last_rent_change,
      attributes.total_30_day_rent_change,
    ]);
    const texts = changes.filter((change) => change !== null);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((text) => /^-?\$\d+$/.test(String(text)))).toBe(true);
    const updated = body.data.flatMap(({ attributes }) => {
      const concessions = attributes.concessions as { updated_at_formatted: string } | null;
      return concessions ? [concessions.updated_at_formatted] : [];
    });
    expect(updated.length).toBeGreaterThan(0);
    expect(updated.every((text) => /^\d+ (minute|hour|day)s? ago$/.test(text))).toBe(true);
  });

  it("names MSAs '... Metro Area' and describes a city as the Census does, ranked after its MSA", async () => {
    const body = await sandbox.post<{ data: { attributes: Attributes }[] }>("/geo_boundaries/search", {
      account_id: ACCOUNT.pro,
      query: "Raleigh",
      limit: 2,
    });
    expect(body.data.map(({ attributes }) => attributes)).toEqual([
      expect.objectContaining({ geo_type: "MSA", name: "Raleigh-Cary, NC Metro Area" }),
      expect.objectContaining({
        geo_type: "CensusPlace",
        place_type: "city",
        description: "Raleigh city, North Carolina",
      }),
    ]);
  });
});
