/**
 * RENT.HISTORY's wide layout against the sandbox over HTTP: one row per field and property, one column per period
 * headed by its date, holding exactly the long layout's values (compared cell by cell here, each long cell found
 * in the wide grid by its property, field and date), for the same requests; a property without values is empty
 * cells, not 0; weeks, months and quarters dated as the long layout dates them; a wrong layout word refused with
 * what was meant, before any request. The reader the pane's charts use (shape/historyLayout.ts) reads both.
 */
import "fake-indexeddb/auto";
import { DEMO_CLIENTS } from "../../sandbox/data/clients";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { history } from "../../src/functions/historyFunctions";
import { useHistoryOptions } from "../../src/functions/historyExportsOf";
import { historyBlockLayout, historySeries } from "../../src/functions/shape/historyLayout";
import { NUMBER_FORMAT_BY_KIND } from "../../src/tables/columnKinds";
import { isoToSerial } from "../../src/tables/excelDates";
import { session } from "../../src/session/session";
import { HOST_PROFILES, supportsSet } from "../host/profiles";
import { UNPACED } from "../support/signedInSandbox";

const NOW = "2026-03-15T12:00:00.000Z";
const RANGE = ["2025-02-01", "2026-02-28"] as const;
const PRO = DEMO_CLIENTS.find((client) => client.clientId === "demo-pro")!;
const JOBS = "/v1/bulk_api/jobs";

let sandbox: RunningSandbox;
let databaseCounter = 0;
/** Four properties with rents and one the sandbox lists without any (its rent columns are empty every day). */
let ids: number[];
let withoutRent: number;

const movingSleep = async (ms: number) => {
  await sandbox.context.worker.flush();
  sandbox.clock.advance(ms);
};

async function signIn(): Promise<void> {
  useHistoryOptions({ now: () => sandbox.clock.now(), sleep: movingSleep, batchWindowMs: 20 });
  session.useDataOptions({ ...UNPACED, databaseName: `history-wide-${++databaseCounter}` });
  await session.signIn(
    { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
    { kind: "client", clientId: PRO.clientId, clientSecret: PRO.clientSecret },
  );
}

/** A streaming RENT.HISTORY cell as Excel calls it (every argument, null where omitted): its final value. */
function cell(
  properties: unknown[],
  fields: string,
  start: string,
  end: string,
  interval: unknown = null,
  aggregation: unknown = null,
  headers: unknown = null,
  layout: unknown = null,
): Promise<unknown[][] | CustomFunctions.Error> {
  return new Promise((resolve) => {
    history([properties], [[fields]], start, end, interval, aggregation, headers, layout, {
      address: "Sheet1!A1",
      functionName: "HISTORY",
      setResult(value) {
        // A wait is one cell of text; anything else (a table, even a lone header row, or an error) is the end.
        if (!Array.isArray(value) || value.length > 1 || (value[0]?.length ?? 0) > 1) resolve(value);
      },
    });
  });
}

async function table(...args: Parameters<typeof cell>): Promise<unknown[][]> {
  const value = await cell(...args);
  if (!Array.isArray(value)) throw new Error(`expected a table, got ${value.message}`);
  return value;
}

function requestsSince(before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(sandbox.counters.snapshot())
      .map(([route, count]) => [route, count - (before[route] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

/**
 * Every value cell of the long table looked up in the wide grid by property, field and date (the field column
 * named as the long header names it), the wide grid read by hand, not through historyLayout.ts. Returns how
 * many cells were compared; fails on the first that differs.
 */
function expectSameValues(long: unknown[][], wide: unknown[][]): number {
  const [longHeader = [], ...longRows] = long;
  const [wideHeader = [], ...wideRows] = wide;
  const fields = longHeader.slice(2) as string[];
  const columnOf = new Map(wideHeader.map((date, index) => [date, index]));
  const rowOf = new Map(wideRows.map((row) => [`${String(row[0])}|${String(row[1])}`, row]));
  let compared = 0;
  for (const row of longRows) {
    const column = columnOf.get(row[0]);
    expect(column).toBeGreaterThanOrEqual(2);
    fields.forEach((field, index) => {
      const wideRow = rowOf.get(`${String(row[1])}|${field}`);
      expect([row[1], field, row[0], wideRow?.[column as number]]).toEqual([
        row[1],
        field,
        row[0],
        row[2 + index],
      ]);
      compared++;
    });
  }
  // Nothing more in the wide grid than the long table holds.
  expect(compared).toBe(wideRows.length * (wideHeader.length - 2));
  return compared;
}

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    now: NOW,
    propertyCount: 2000,
    jobTimeScale: 1,
    rateLimit: 1_000_000,
    tokenLifetimeSeconds: 30 * 86_400,
  });
  const properties = [...sandbox.dataset().propertyById.values()];
  withoutRent = properties.find((property) => property.askingRent === null && property.id > 100004)!.id;
  ids = [100001, 100002, withoutRent, 100003, 100004];
});

afterEach(async () => {
  await session.signOut();
  delete (globalThis as { Office?: unknown }).Office;
});
afterAll(async () => {
  useHistoryOptions({});
  await sandbox.close();
});

describe("RENT.HISTORY's wide layout", () => {
  it("holds the long layout's numbers, one row per field and property, one dated column per period, at the same request cost", async () => {
    const fields = "avg_rent, advertised_occupancy_pct, leases_last_30d";
    // Long first, cold over an empty cache; then wide, cold over an empty cache of its own.
    await signIn();
    const longBefore = sandbox.counters.snapshot();
    const long = await table(ids, fields, ...RANGE, "month", "average");
    const longCost = requestsSince(longBefore);
    await session.signOut();
    await signIn();
    const wideBefore = sandbox.counters.snapshot();
    const wide = await table(ids, fields, ...RANGE, "month", "average", null, "wide");
    const wideCost = requestsSince(wideBefore);
    expect(longCost[JOBS]).toBe(1);
    expect(wideCost).toEqual(longCost);

    const months = [
      "2025-02-28",
      "2025-03-31",
      "2025-04-30",
      "2025-05-31",
      "2025-06-30",
      "2025-07-31",
      "2025-08-31",
      "2025-09-30",
      "2025-10-31",
      "2025-11-30",
      "2025-12-31",
      "2026-01-31",
      "2026-02-28",
    ].map(isoToSerial);
    expect(wide[0]).toEqual(["id", "field", ...months]);
    // Each field's rows together, the properties in the order given within.
    expect(wide.slice(1).map((row) => [row[0], row[1]])).toEqual(
      ["avg_rent", "advertised_occupancy_pct", "leases_last_30d"].flatMap((field) =>
        ids.map((id) => [id, field]),
      ),
    );
    expect(expectSameValues(long, wide)).toBe(3 * 5 * 13);
    // The property without rents: empty cells every month, not 0, in both layouts.
    const emptyRow = wide.find((row) => row[0] === withoutRent && row[1] === "avg_rent")!;
    expect(emptyRow.slice(2)).toEqual(months.map(() => ""));
    expect(long.filter((row) => row[1] === withoutRent).map((row) => row[2])).toEqual(months.map(() => ""));
    // A property with rents has a number every month.
    const rents = wide.find((row) => row[0] === 100001 && row[1] === "avg_rent")!.slice(2);
    expect(rents.every((value) => typeof value === "number" && value > 0)).toBe(true);

    // The reader the pane's charts use tells the layouts apart and finds the same series in both.
    expect(historyBlockLayout("HISTORY", long[0]!)).toMatchObject({
      layout: "long",
      dateColumn: 0,
      fieldColumns: [2, 3, 4],
    });
    expect(historyBlockLayout("HISTORY", wide[0]!)).toMatchObject({
      layout: "wide",
      keyColumns: [0],
      fieldColumn: 1,
      periods: months,
    });
    const sorted = (block: unknown[][]) =>
      historySeries("HISTORY", block)!.sort((a, b) =>
        `${a.field}|${a.keys}`.localeCompare(`${b.field}|${b.keys}`),
      );
    expect(sorted(wide)).toHaveLength(15);
    expect(sorted(wide)).toEqual(sorted(long));
  });

  it("dates weeks, months and quarters as the long layout does, each clipped to the range, from the days kept", async () => {
    await signIn();
    await table(ids, "avg_rent", ...RANGE, "month");
    const before = sandbox.counters.snapshot();
    const cases: [string, string, string, string[]][] = [
      // Monday-to-Sunday weeks from a Wednesday to a Thursday: the first and last cut short.
      ["week", "2025-03-05", "2025-03-20", ["2025-03-09", "2025-03-16", "2025-03-20"]],
      ["month", "2025-02-10", "2025-04-20", ["2025-02-28", "2025-03-31", "2025-04-20"]],
      ["quarter", ...RANGE, ["2025-03-31", "2025-06-30", "2025-09-30", "2025-12-31", "2026-02-28"]],
    ];
    for (const [interval, start, end, dates] of cases) {
      for (const aggregation of ["last", "max", "sum"]) {
        const long = await table(ids, "avg_rent, avg_ner", start, end, interval, aggregation);
        const wide = await table(ids, "avg_rent, avg_ner", start, end, interval, aggregation, null, "wide");
        expect([interval, wide[0]]).toEqual([interval, ["id", "field", ...dates.map(isoToSerial)]]);
        expect(expectSameValues(long, wide)).toBe(2 * ids.length * dates.length);
      }
    }
    // The days were kept: no request for any of them.
    expect(requestsSince(before)).toEqual({});
  });

  it('heads the keys and names the fields readably under headers "names", and carries dates as dates where the host has data types', async () => {
    await signIn();
    const ids = await table(
      [100001, 100002],
      "avg_rent, leases_last_30d",
      "2026-01-01",
      "2026-01-31",
      "week",
      null,
      null,
      "wide",
    );
    const names = await table(
      [100001, 100002],
      "avg_rent, leases_last_30d",
      "2026-01-01",
      "2026-01-31",
      "week",
      null,
      "names",
      "wide",
    );
    expect(names[0]).toEqual(["Id", "Field", ...(ids[0] as unknown[]).slice(2)]);
    expect(names.map((row) => row[1])).toEqual([
      "Field",
      "Avg rent",
      "Avg rent",
      "Leases, 30 d",
      "Leases, 30 d",
    ]);
    expect(names.slice(1).map((row) => [row[0], ...row.slice(2)])).toEqual(
      ids.slice(1).map((row) => [row[0], ...row.slice(2)]),
    );
    expect(historyBlockLayout("HISTORY", names[0]!)?.layout).toBe("wide");

    // Microsoft 365 (CustomFunctionsRuntime 1.4, ExcelApi 1.19): the header's periods are Excel dates with a date
    // format, the rents formatted as money, and the reader still reads the block.
    const profile = HOST_PROFILES["m365-windows"];
    Object.assign(globalThis, {
      Office: {
        context: {
          requirements: {
            isSetSupported: (name: string, version?: string) => supportsSet(profile, name, version),
          },
        },
      },
    });
    const typed = await table(
      [100001, 100002],
      "avg_rent, leases_last_30d",
      "2026-01-01",
      "2026-01-31",
      "week",
      null,
      null,
      "wide",
    );
    expect(typed[0]?.[2]).toEqual({
      type: "Double",
      basicValue: isoToSerial("2026-01-04"),
      numberFormat: NUMBER_FORMAT_BY_KIND.date,
    });
    expect(typed[1]?.[2]).toEqual({
      type: "Double",
      basicValue: ids[1]?.[2],
      numberFormat: NUMBER_FORMAT_BY_KIND.currency,
    });
    expect(historySeries("HISTORY", typed)).toEqual(historySeries("HISTORY", ids));
  });

  it("refuses a layout it does not have, saying which was meant, before any request", async () => {
    await signIn();
    const before = sandbox.counters.snapshot();
    const message = async (layout: unknown) => {
      const value = await cell([100001], "avg_rent", "2026-01-01", "2026-01-31", "week", null, null, layout);
      return value instanceof Error ? value.message : "a table";
    };
    expect(await message("wdie")).toBe('layout must be long or wide, not "wdie". Did you mean "wide"?');
    expect(await message("horizontal")).toBe(
      'layout must be long or wide, not "horizontal". Did you mean "wide"?',
    );
    expect(await message("rows")).toBe('layout must be long or wide, not "rows". Did you mean "long"?');
    expect(await message("sideways")).toBe('layout must be long or wide, not "sideways".');
    expect(await message(2)).toBe("layout must be long or wide, not 2.");
    // Named properties are looked up only once the other arguments are right: no lookup either.
    const byName = await cell(
      ["Mill Creek"],
      "avg_rent",
      "2026-01-01",
      "2026-01-31",
      null,
      null,
      null,
      "wdie",
    );
    expect((byName as CustomFunctions.Error).message).toMatch(/^layout must be long or wide/);
    // More periods than a sheet has columns: refused, not spilled into #SPILL!.
    expect(
      await cell([100001], "avg_rent", "1980-01-01", "2026-03-01", "day", null, null, "wide"),
    ).toMatchObject({
      message:
        "layout wide: 16,862 periods of a day need 16,864 columns; a sheet has 16,384. Use a longer interval, a shorter range, or layout long.",
    });
    expect(requestsSince(before)).toEqual({});
  });

  it('takes the layout in any case, and an empty one (null, "", desktop Excel\'s 0) as long', async () => {
    await signIn();
    const long = await table([100001], "avg_rent", "2026-01-01", "2026-01-31", "week");
    for (const empty of [null, "", 0, "long", "LONG"])
      expect(
        await table([100001], "avg_rent", "2026-01-01", "2026-01-31", "week", null, null, empty),
      ).toEqual(long);
    const wide = await table([100001], "avg_rent", "2026-01-01", "2026-01-31", "week", null, null, "wide");
    expect(
      await table([100001], "avg_rent", "2026-01-01", "2026-01-31", "week", null, null, " Wide "),
    ).toEqual(wide);
    expect(wide).toHaveLength(2);
    expect(wide[0]?.slice(0, 2)).toEqual(["id", "field"]);
  });
});
