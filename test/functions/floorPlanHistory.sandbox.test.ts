/**
 * RENT.FLOORPLANHISTORY over HTTP: a comp set's floor plans over time from the floor plans endpoint's collection
 * days, one row per plan and period, compared with the sandbox's own answer; finished days kept for good (no
 * request the second time, only the new days when the range grows); a shorter history than asked said in the
 * date header.
 */
import "fake-indexeddb/auto";
import type { IncomingMessage } from "node:http";
import { isoToSerial } from "../../src/tables/excelDates";
import { floorPlanHistory } from "../../src/functions/compSetFunctions";
import { useHistoryOptions } from "../../src/functions/historyExportsOf";
import { historyBlockLayout, historySeries } from "../../src/functions/shape/historyLayout";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

const NOW = "2026-03-15T12:00:00.000Z";
const FLOOR_PLANS = "/v1/comp_sets/:comp_set_id/floor_plans";

type Point = { collected_at: string; value: number | null };
type RawPlan = { property_id: number; name: string; asking_rent_over_time: Point[] };
type RawFloorPlans = {
  data: { attributes: Record<string, { floor_plans: RawPlan[] }[] | undefined> };
};

let env: SignedInSandbox;
let compSetId: number;
/** The query strings of the floor plans requests the add-in sent. */
let floorPlanQueries: string[];

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro", { now: NOW });
  useHistoryOptions({ now: () => env.sandbox.clock.now() });
  const sets = await env.raw.get<{ data: { id: string }[] }>(`/accounts/${env.accountId}/comp_sets`);
  compSetId = Number(sets.data[0]?.id);
  env.sandbox.app.server.on("request", (request: IncomingMessage) => {
    if (/\/floor_plans\?/.test(request.url ?? ""))
      floorPlanQueries.push(decodeURIComponent((request.url ?? "").split("?")[1] ?? ""));
  });
});

beforeEach(() => {
  floorPlanQueries = [];
});

afterAll(async () => {
  useHistoryOptions({});
  await env.close();
});

const requests = () => env.sandbox.counters.get(FLOOR_PLANS);

function column(table: unknown[][], name: string): unknown[] {
  const index = (table[0] as string[]).indexOf(name);
  if (index < 0) throw new Error(`no column ${name} in ${String(table[0])}`);
  return table.slice(1).map((row) => (row as unknown[])[index]);
}

/** The sandbox's own plans for the range, as the live service lists them (one entry per plan, rents over time). */
async function rawPlans(from: string, to: string): Promise<RawPlan[]> {
  const answer = await env.raw.get<RawFloorPlans>(`/comp_sets/${compSetId}/floor_plans`, {
    "filter[collected_at_gte]": from,
    "filter[collected_at_lte]": to,
  });
  const attributes = answer.data.attributes;
  return (attributes.floor_plans_by_bed_bath ?? attributes.floor_plans_by_bed ?? []).flatMap(
    (bucket) => bucket.floor_plans,
  );
}

it("spills one row per plan and week, the week's last asking rent, one request cold and none warm", async () => {
  // The sandbox's own answer first, so the add-in's requests are counted alone.
  const plans = await rawPlans("2026-02-02", "2026-03-01");
  expect(plans.length).toBeGreaterThan(0);
  const before = requests();
  const table = await floorPlanHistory(
    compSetId,
    [["asking_rent"]],
    "2026-02-02",
    "2026-03-01",
    "week",
    null,
    null,
    null,
    fakeInvocation(),
  );
  expect(requests() - before).toBe(1);
  expect(table[0]).toEqual([
    "date",
    "property_id",
    "property_name",
    "floor_plan",
    "bedroom_count",
    "bathroom_count",
    "asking_rent",
  ]);
  // Four Monday-to-Sunday weeks per plan, each dated by its Sunday.
  expect(table).toHaveLength(1 + plans.length * 4);
  const sundays = ["2026-02-08", "2026-02-15", "2026-02-22", "2026-03-01"];
  expect([...new Set(column(table, "date"))]).toEqual(sundays.map(isoToSerial));
  // Each plan's week ends with the rent the service collected that Sunday.
  const plan = plans[plans.length - 1] as RawPlan;
  const rows = (table.slice(1) as unknown[][]).filter(
    (row) => row[1] === plan.property_id && row[3] === plan.name,
  );
  expect(rows.map((row) => row[6])).toEqual(
    sundays.map((day) => plan.asking_rent_over_time.find((point) => point.collected_at === day)?.value),
  );

  // The same formula again: from the days kept, no request.
  const again = await floorPlanHistory(
    compSetId,
    [["asking_rent"]],
    "2026-02-02",
    "2026-03-01",
    "week",
    null,
    null,
    null,
    fakeInvocation(),
  );
  expect(again).toEqual(table);
  expect(requests() - before).toBe(1);
  // Headed by readable names (the contract's x-field-labels) when asked, the rows the same.
  const named = (await floorPlanHistory(
    compSetId,
    [["asking_rent"]],
    "2026-02-02",
    "2026-03-01",
    "week",
    null,
    "names",
    null,
    fakeInvocation(),
  )) as unknown[][];
  expect([named[0]?.[2], named[0]?.[6]]).toEqual(["Property name", "Asking rent"]);
  expect(named.slice(1)).toEqual(table.slice(1));

  // A longer range asks only for the days never fetched.
  const longer = await floorPlanHistory(
    compSetId,
    [["asking_rent, net_effective_rent"]],
    "2026-02-02",
    "2026-03-10",
    "month",
    "average",
    null,
    null,
    fakeInvocation(),
  );
  expect(requests() - before).toBe(2);
  expect(floorPlanQueries.at(-1)).toBe(
    "filter[collected_at_gte]=2026-03-02&filter[collected_at_lte]=2026-03-10",
  );
  expect(longer).toHaveLength(1 + plans.length * 2);
  const februaryAverage =
    plan.asking_rent_over_time
      .filter((point) => point.collected_at < "2026-03-01")
      .reduce((sum, point) => sum + (point.value as number), 0) / 27;
  const februaryRow = (longer.slice(1) as unknown[][]).find(
    (row) => row[1] === plan.property_id && row[3] === plan.name,
  );
  expect(februaryRow?.[6]).toBeCloseTo(februaryAverage, 6);
});

it("says in the date header which range the service returned when its history is shorter than asked", async () => {
  const table = await floorPlanHistory(
    compSetId,
    [["net_effective_rent"]],
    "2025-11-01",
    "2026-01-31",
    "month",
    null,
    null,
    null,
    fakeInvocation(),
  );
  const days = (await rawPlans("2025-11-01", "2026-01-31")).flatMap((plan) =>
    plan.asking_rent_over_time.map((point) => point.collected_at),
  );
  const first = days.reduce((a, b) => (a < b ? a : b));
  expect(first > "2025-11-01").toBe(true);
  expect((table[0] as string[])[0]).toBe(`date (${first} to 2026-01-31 of 2025-11-01 to 2026-01-31 asked)`);
});

it("says what is wrong with bad arguments, without a request", async () => {
  const before = requests();
  const messageOf = (...args: Parameters<typeof floorPlanHistory>) =>
    floorPlanHistory(...args).then(
      () => "no error",
      (error: Error) => error.message,
    );
  expect(await messageOf(compSetId, [["asking_rnt"]], "2026-01-01", "2026-01-31")).toBe(
    'fields: a floor plan history holds asking_rent and net_effective_rent, not "asking_rnt". Did you mean "asking_rent"?',
  );
  expect(await messageOf(compSetId, [[""]], "2026-01-01", "2026-03-15")).toMatch(/^end must be before today/);
  expect(await messageOf(compSetId, [[""]], "2026-02-01", "2026-01-01")).toBe("start must not be after end.");
  expect(requests() - before).toBe(0);
});

describe("the wide layout", () => {
  const KEYS = ["property_id", "property_name", "floor_plan", "bedroom_count", "bathroom_count"];

  it("holds the long layout's figures, one row per field and plan, one dated column per period, for one request as long costs", async () => {
    // Days no test above fetched: wide asks for them as long would, once.
    const before = requests();
    const wide = (await floorPlanHistory(
      compSetId,
      [["asking_rent, net_effective_rent"]],
      "2026-01-05",
      "2026-02-01",
      "week",
      "average",
      null,
      "wide",
      fakeInvocation(),
    )) as unknown[][];
    expect(requests() - before).toBe(1);
    const long = (await floorPlanHistory(
      compSetId,
      [["asking_rent, net_effective_rent"]],
      "2026-01-05",
      "2026-02-01",
      "week",
      "average",
      null,
      null,
      fakeInvocation(),
    )) as unknown[][];
    expect(requests() - before).toBe(1);

    const sundays = ["2026-01-11", "2026-01-18", "2026-01-25", "2026-02-01"].map(isoToSerial);
    expect(wide[0]).toEqual([...KEYS, "field", ...sundays]);
    const plans = (long.length - 1) / sundays.length;
    expect(wide).toHaveLength(1 + 2 * plans);
    // Each field's plans together, in the long layout's order of plans.
    const planOrder = (long.slice(1) as unknown[][]).filter((_, index) => index % sundays.length === 0);
    expect(wide.slice(1).map((row) => row.slice(0, 6))).toEqual(
      ["asking_rent", "net_effective_rent"].flatMap((field) =>
        planOrder.map((row) => [...row.slice(1, 6), field]),
      ),
    );
    // Every long cell, found in the wide grid by its plan, field and date (read by hand).
    let compared = 0;
    for (const row of long.slice(1) as unknown[][])
      ["asking_rent", "net_effective_rent"].forEach((field, index) => {
        const wideRow = (wide.slice(1) as unknown[][]).find(
          (candidate) => candidate[0] === row[1] && candidate[2] === row[3] && candidate[5] === field,
        );
        expect(wideRow?.[6 + sundays.indexOf(row[0] as number)]).toEqual(row[6 + index]);
        compared++;
      });
    expect(compared).toBe((wide.length - 1) * sundays.length);

    expect(historyBlockLayout("FLOORPLANHISTORY", wide[0] as unknown[])).toMatchObject({
      layout: "wide",
      keyColumns: [0, 1, 2, 3, 4],
      fieldColumn: 5,
      periods: sundays,
    });
    expect(historyBlockLayout("FLOORPLANHISTORY", long[0] as unknown[])).toMatchObject({
      layout: "long",
      keyColumns: [1, 2, 3, 4, 5],
      fieldColumns: [6, 7],
    });
    const sorted = (block: unknown[][]) =>
      historySeries("FLOORPLANHISTORY", block)!.sort((a, b) =>
        JSON.stringify([a.field, a.keys]).localeCompare(JSON.stringify([b.field, b.keys])),
      );
    expect(sorted(wide)).toEqual(sorted(long));
  });

  it("says in the field header which range the service returned when its history is shorter than asked", async () => {
    const wide = (await floorPlanHistory(
      compSetId,
      [["net_effective_rent"]],
      "2025-11-01",
      "2026-01-31",
      "month",
      null,
      null,
      "wide",
      fakeInvocation(),
    )) as unknown[][];
    const long = (await floorPlanHistory(
      compSetId,
      [["net_effective_rent"]],
      "2025-11-01",
      "2026-01-31",
      "month",
      null,
      null,
      null,
      fakeInvocation(),
    )) as unknown[][];
    const note = /^date \((.+)\)$/.exec((long[0] as string[])[0] as string)?.[1];
    expect(note).toMatch(/ to 2026-01-31 of 2025-11-01 to 2026-01-31 asked$/);
    expect((wide[0] as unknown[])[5]).toBe(`field (${note})`);
    // November, before the service's history starts, is empty cells for every plan, as in the long layout.
    expect(wide.slice(1).map((row) => row[6])).toEqual(wide.slice(1).map(() => ""));
    expect(historyBlockLayout("FLOORPLANHISTORY", wide[0] as unknown[])?.layout).toBe("wide");
  });

  it("refuses a layout it does not have, saying which was meant, without a request", async () => {
    const before = requests();
    const message = await floorPlanHistory(
      compSetId,
      [["asking_rent"]],
      "2026-01-01",
      "2026-01-31",
      "week",
      null,
      null,
      "wiide",
      fakeInvocation(),
    ).then(
      () => "no error",
      (error: Error) => error.message,
    );
    expect(message).toBe('layout must be long or wide, not "wiide". Did you mean "wide"?');
    expect(requests() - before).toBe(0);
  });
});
