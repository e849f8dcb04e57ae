import "fake-indexeddb/auto";
import { DEMO_CLIENTS } from "../../sandbox/data/clients";
import type { PropertyCore } from "../../sandbox/data/properties";
import { dayNumber } from "../../sandbox/data/propertyRecord";
import { exportRowsFor } from "../../sandbox/jobs/exportRows";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { history } from "../../src/functions/historyFunctions";
import { useHistoryOptions } from "../../src/functions/historyExportsOf";
import { cellAsOf } from "../../src/functions/cellAsOf";
import { expectedJobMs } from "../../src/data/history/exportJobWait";
import type { ExportJobsState } from "../../src/data/exportJobsUnderWay";
import { session } from "../../src/session/session";
import { UNPACED } from "../support/signedInSandbox";

// Jobs take the live service's time (jobTimeScale 1) on the sandbox's frozen clock. The add-in's clock is the
// same clock, and its "sleep" between polls moves it: a ten-minute job runs in a few real milliseconds.
const NOW = "2026-03-15T12:00:00.000Z";
const TEN_IDS = Array.from({ length: 10 }, (_, index) => 100001 + index);
const FIRST_FIVE = TEN_IDS.slice(0, 5);
const LAST_FIVE = TEN_IDS.slice(5);
const PRO = DEMO_CLIENTS.find((client) => client.clientId === "demo-pro")!;

let sandbox: RunningSandbox;
let databaseCounter = 0;

/** Advances the sandbox clock instead of waiting, once the sandbox has written what it was asked for. */
const movingSleep = async (ms: number) => {
  await sandbox.context.worker.flush();
  sandbox.clock.advance(ms);
};

async function signIn(databaseName: string, sleep = movingSleep): Promise<void> {
  useHistoryOptions({ now: () => sandbox.clock.now(), sleep, batchWindowMs: 20 });
  session.useDataOptions({ ...UNPACED, databaseName });
  await session.signIn(
    { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
    { kind: "client", clientId: PRO.clientId, clientSecret: PRO.clientSecret },
  );
}

/** A streaming cell: every value it was given, and the first that is a table or an error. */
function streamingCell(
  properties: unknown[][],
  fields: unknown[][] | string,
  start: unknown,
  end: unknown,
  interval: unknown = null,
  aggregation: unknown = null,
  headers: unknown = null,
  address = "Sheet1!A1",
) {
  const shown: unknown[] = [];
  let settle: (value: unknown) => void = () => undefined;
  const final = new Promise<unknown>((resolve) => (settle = resolve));
  const invocation: CustomFunctions.StreamingInvocation<unknown[][]> & { cancel(): void } = {
    address,
    functionName: "HISTORY",
    setResult(value) {
      shown.push(value);
      if (value instanceof Error || (Array.isArray(value) && value.length > 1)) settle(value);
    },
    cancel() {
      invocation.onCanceled?.();
    },
  };
  // Excel passes every argument, null where omitted, and a matrix argument typed as text as [["text"]].
  const grid = typeof fields === "string" ? [[fields]] : fields;
  history(properties, grid, start, end, interval, aggregation, headers, null, invocation);
  return { shown, final, invocation };
}

/** Requests per route since `before` (a counters snapshot), without the ones that did not change. */
function requestsSince(before: Record<string, number>): Record<string, number> {
  const after = sandbox.counters.snapshot();
  return Object.fromEntries(
    Object.entries(after)
      .map(([route, count]) => [route, count - (before[route] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

const JOBS = "/v1/bulk_api/jobs";
const POLL = "/v1/bulk_api/jobs/:job_id";
const RESULTS = "/v1/bulk_api/jobs/:job_id/results";
const DOWNLOAD = "download:/download/:jobId/:fileName";

function column(table: unknown[][], name: string): unknown[] {
  const index = (table[0] as string[]).indexOf(name);
  return table.slice(1).map((row) => (row as unknown[])[index]);
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
});

afterEach(async () => {
  await session.signOut();
  jest.useRealTimers();
});
afterAll(() => sandbox.close());

describe("RENT.HISTORY", () => {
  it("ten properties over 13 months: one job cold (plus polls) with its wait shown, no request warm", async () => {
    await signIn(`history-${++databaseCounter}`);
    const before = sandbox.counters.snapshot();
    const started = sandbox.clock.now();
    // Two cells of one recalculation, five properties each, different fields, the same days: one job of ten.
    const rents = streamingCell([FIRST_FIVE], [["avg_rent"]], "2025-02-01", "2026-02-28", "month", "last");
    const occupancy = streamingCell(
      [LAST_FIVE],
      "advertised_occupancy_pct, leases_last_30d",
      "2025-02-01",
      "2026-02-28",
      "month",
      "average",
    );
    const [table, occupancyTable] = (await Promise.all([rents.final, occupancy.final])) as unknown[][][];

    const cold = requestsSince(before);
    expect(cold[JOBS]).toBe(1);
    const job = sandbox.context.jobs.listFor(PRO.clientId)[0];
    expect([job?.propertyIds.length, job?.startDate, job?.endDate]).toEqual([10, "2025-02-01", "2026-02-28"]);
    expect(cold[RESULTS]).toBe(1);
    // ...and the file from the download origin (signed link, no token).
    expect(Object.keys(cold).sort()).toEqual([DOWNLOAD, JOBS, POLL, RESULTS].sort());
    expect(cold[POLL]).toBeLessThanOrEqual(12);
    // The wait was shown while the job ran: about 7.5 minutes for this size on the live service.
    expect(rents.shown).toContainEqual([["export running, about 7 min"]]);
    expect(sandbox.clock.now() - started).toBeGreaterThanOrEqual(5 * 60_000);

    // 5 properties x 13 months, each month dated by its last day, values as the sandbox's export has them.
    expect(table![0]).toEqual(["date", "id", "avg_rent"]);
    expect(table!).toHaveLength(1 + 5 * 13);
    const dataset = sandbox.dataset();
    const today = dayNumber(sandbox.clock.today());
    const rowOf = (iso: string, id = 100003) =>
      exportRowsFor(
        dataset,
        "property",
        dataset.propertyById.get(id) as PropertyCore,
        dayNumber(iso),
        today,
        "fraction",
      )[0] as Record<string, unknown>;
    const rowsOf100003 = (table!.slice(1) as unknown[][]).filter((row) => row[1] === 100003);
    expect(rowsOf100003).toHaveLength(13);
    expect(rowsOf100003[0]).toEqual([expect.any(Number), 100003, rowOf("2025-02-28").avg_rent ?? ""]);
    expect(rowsOf100003[12]?.[2]).toBe(rowOf("2026-02-28").avg_rent ?? "");
    // Averages over the month's days, percents as fractions (the add-in's one convention).
    const march = Array.from({ length: 31 }, (_, day) =>
      rowOf(`2025-03-${String(day + 1).padStart(2, "0")}`, 100008),
    );
    const marchOccupancy = march.map((row) => row.advertised_occupancy_pct as number);
    const occupancyOf100008 = (occupancyTable!.slice(1) as unknown[][]).filter((row) => row[1] === 100008);
    expect(occupancyOf100008[1]?.[2]).toBeCloseTo(marchOccupancy.reduce((a, b) => a + b, 0) / 31, 6);

    // Warm: all ten properties answer at once from the cache, without a request.
    const warmBefore = sandbox.counters.snapshot();
    const again = streamingCell([TEN_IDS], [["avg_rent"]], "2025-02-01", "2026-02-28", "month", "last");
    expect(again.shown).toHaveLength(1);
    const warm = again.shown[0] as unknown[][];
    expect(warm).toHaveLength(1 + 10 * 13);
    expect(warm.slice(0, 1 + 5 * 13)).toEqual(table);
    expect(requestsSince(warmBefore)).toEqual({});

    // Extending the range asks only for the new days.
    const extended = streamingCell([TEN_IDS], [["avg_rent"]], "2025-02-01", "2026-03-10");
    const longer = (await extended.final) as unknown[][];
    expect(longer).toHaveLength(1 + 10 * (393 + 10));
    const newest = sandbox.context.jobs.listFor(PRO.clientId)[0];
    expect([newest?.startDate, newest?.endDate, newest?.propertyIds.length]).toEqual([
      "2026-03-01",
      "2026-03-10",
      10,
    ]);
  });

  it("keeps each cell's as-of by the address Excel gives the streaming call: its months from the job, then from the cache, with their data's days", async () => {
    await signIn(`history-${++databaseCounter}`);
    const cold = streamingCell(
      [FIRST_FIVE],
      [["avg_rent"]],
      "2025-02-10",
      "2025-04-20",
      "month",
      null,
      null,
      "'Hist ''25'!B2",
    );
    await cold.final;
    // 5 properties x 3 months, each month one answer, stored when the job's file arrived, kept for good.
    expect(cellAsOf("Hist '25", "B2")?.lines).toEqual([
      {
        kind: "history",
        source: "network",
        answers: 15,
        firstStoredAt: expect.any(Number),
        lastStoredAt: expect.any(Number),
        freshUntil: Number.POSITIVE_INFINITY,
        firstDataDate: "2025-02-10",
        lastDataDate: "2025-04-20",
      },
    ]);

    // Another cell over part of those days: answered from memory, and its as-of says so, with its own days.
    const warm = streamingCell(
      [FIRST_FIVE.slice(0, 2)],
      [["avg_rent"]],
      "2025-03-01",
      "2025-03-31",
      null,
      null,
      null,
      "Hist!D4",
    );
    await warm.final;
    expect(cellAsOf("Hist", "D4")?.lines).toEqual([
      expect.objectContaining({
        kind: "history",
        source: "cache",
        answers: 2,
        firstDataDate: "2025-03-01",
        lastDataDate: "2025-03-31",
      }),
    ]);
  });

  it("tells the pane the export job its cell waits for: being submitted, the time its size usually takes, gone once it ended", async () => {
    useHistoryOptions({ now: () => sandbox.clock.now(), sleep: movingSleep, batchWindowMs: 20 });
    // The data layer on the same clock as the jobs, as both are on the person's clock in Excel.
    session.useDataOptions({
      ...UNPACED,
      databaseName: `history-${++databaseCounter}`,
      now: () => sandbox.clock.now(),
    });
    await session.signIn(
      { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
      { kind: "client", clientId: PRO.clientId, clientSecret: PRO.clientSecret },
    );
    const { data } = session.requireSignedIn();
    const seen: ExportJobsState[] = [];
    data.onProgressChange(() => seen.push(data.progress().exportJobs));

    const cell = streamingCell([[100031, 100032]], "avg_rent", "2025-02-01", "2025-02-28");
    expect(await cell.final).toEqual(expect.arrayContaining([["date", "id", "avg_rent"]]));
    // Before its id is known it is being submitted; from the submission on, the time its size usually takes
    // runs down as the polls move the clock; once its days are in, nothing is under way.
    expect(seen[0]).toEqual({ running: 1, timeLeftMs: 0 });
    const submitted = seen.filter((state) => state.timeLeftMs > 0);
    expect(submitted[0]).toEqual({ running: 1, timeLeftMs: expectedJobMs(2, 28) });
    for (const [index, state] of submitted.entries())
      expect(state.timeLeftMs).toBeLessThanOrEqual(submitted[index - 1]?.timeLeftMs ?? state.timeLeftMs);
    expect(seen[seen.length - 1]).toEqual({ running: 0, timeLeftMs: 0 });
    expect(data.progress().exportJobs).toEqual({ running: 0, timeLeftMs: 0 });
  });

  it("a pane reload during the job follows the same job instead of submitting it again", async () => {
    const databaseName = `history-${++databaseCounter}`;
    // The first pane submits, then is gone while it waits (its wait never ends).
    await signIn(databaseName, () => new Promise<void>(() => undefined));
    const before = sandbox.counters.snapshot();
    const first = streamingCell([[100021, 100022]], "avg_ner", "2025-06-01", "2025-08-31", "week");
    for (
      let tries = 0;
      !first.shown.some((shown) => String(shown).startsWith("export running")) && tries < 200;
      tries++
    )
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(requestsSince(before)).toEqual({ [JOBS]: 1 });
    first.invocation.cancel();

    // The reloaded pane (no sign-out: that would end the person's cache) signs in again on the same cache
    // and recalculates the same formula.
    await signIn(databaseName);
    const reloaded = streamingCell([[100021, 100022]], "avg_ner", "2025-06-01", "2025-08-31", "week");
    const table = (await reloaded.final) as unknown[][];
    expect(table[0]).toEqual(["date", "id", "avg_ner"]);
    const requests = requestsSince(before);
    expect(requests[JOBS]).toBe(1);
    expect(requests[RESULTS]).toBe(1);
    expect(column(table, "id")).toContain(100022);

    // Excel restarted after the job: the days come from IndexedDB at once, and the finished job is not looked at.
    await signIn(databaseName);
    const afterRestart = sandbox.counters.snapshot();
    const restarted = streamingCell([[100021, 100022]], "avg_ner", "2025-06-01", "2025-08-31", "week");
    expect(restarted.shown).toEqual([table]);
    expect(requestsSince(afterRestart)).toEqual({});
  });

  it("a job that never ends fails its cells with the reason after the bound, and is cancelled at the service", async () => {
    await signIn(`history-${++databaseCounter}`);
    sandbox.context.worker.configure({ stallReportType: "property" });
    try {
      const started = sandbox.clock.now();
      const cell = streamingCell([[100031]], "avg_rent", "2026-01-01", "2026-01-31");
      const error = (await cell.final) as CustomFunctions.Error;
      expect(error).toBeInstanceOf(CustomFunctions.Error);
      expect(error.code).toBe("#N/A");
      expect(error.message).toMatch(
        /^Export job [0-9a-f]{8} was still running after 1[5-6] min \(expected about 1 min\); the service may have stalled it, so it was cancelled\. Recalculate to submit it again\.$/,
      );
      expect(sandbox.clock.now() - started).toBeLessThan(20 * 60_000);
      expect(sandbox.context.jobs.listFor(PRO.clientId)[0]?.status).toBe("cancelled");
    } finally {
      sandbox.context.worker.configure({ stallReportType: undefined });
    }
  });

  it("keeps an access token's days for its reloads, and to that person: another token fetches its own", async () => {
    const databaseName = `history-${++databaseCounter}`;
    const manualTokens = new Map(
      ["demo-pro", "demo-proplus"].map((id) => [id, sandbox.context.tokens.issueManualToken(id).accessToken]),
    );
    const signInWithToken = async (clientId: string) => {
      useHistoryOptions({ now: () => sandbox.clock.now(), sleep: movingSleep, batchWindowMs: 20 });
      session.useDataOptions({ ...UNPACED, databaseName });
      await session.signIn(
        { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
        { kind: "manual", accessToken: manualTokens.get(clientId) as string },
      );
    };
    // Manual tokens carry their expiry (the sandbox's clock, frozen in the past): the add-in reads it on the same date.
    jest.useFakeTimers({
      now: sandbox.clock.now(),
      doNotFake: [
        "setTimeout",
        "clearTimeout",
        "setInterval",
        "clearInterval",
        "setImmediate",
        "nextTick",
        "queueMicrotask",
      ],
    });
    await signInWithToken("demo-pro");
    const before = sandbox.counters.snapshot();
    const first = (await streamingCell([[100041]], "avg_rent", "2026-01-01", "2026-01-31")
      .final) as unknown[][];
    expect(first[0]).toEqual(["date", "id", "avg_rent"]);
    expect(requestsSince(before)[JOBS]).toBe(1);

    // A reload signs the same token in again: the days are read into memory with the person's other answers,
    // so the cell shows its table at once, without a wait or a request.
    const token = session.requireSignedIn();
    await session.signIn(
      { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
      { kind: "manual", accessToken: manualTokens.get("demo-pro") as string },
    );
    expect(session.requireSignedIn().data).not.toBe(token.data);
    const reloaded = streamingCell([[100041]], "avg_rent", "2026-01-01", "2026-01-31");
    expect(reloaded.shown).toEqual([first]);

    // Another person's token: their sign-in ends the first one (whose days go with it) and asks for its own.
    await signInWithToken("demo-proplus");
    const second = (await streamingCell([[100041]], "avg_rent", "2026-01-01", "2026-01-31")
      .final) as unknown[][];
    expect(second).toEqual(first);
    expect(requestsSince(before)[JOBS]).toBe(2);
  });

  it("takes property names as RENT.PROPERTY does: the name's history is its id's, one lookup and no second job", async () => {
    await signIn(`history-${++databaseCounter}`);
    const properties = [...sandbox.dataset().propertyById.values()];
    const named = (name: string) => properties.filter((candidate) => candidate.name === name);
    const unique = properties.find((candidate) => named(candidate.name).length === 1)!;
    const shared = properties.find((candidate) => named(candidate.name).length > 1)!;
    const before = sandbox.counters.snapshot();
    const byName = streamingCell([[unique.name]], [["avg_rent"]], "2026-01-01", "2026-01-31", "week");
    const table = (await byName.final) as unknown[][];
    expect(byName.shown[0]).toEqual([["finding properties by name"]]);
    expect(new Set((table.slice(1) as unknown[][]).map((row) => row[1]))).toEqual(new Set([unique.id]));
    const cold = requestsSince(before);
    expect(cold["/v1/properties/lookup"]).toBe(1);
    expect(cold[JOBS]).toBe(1);

    const byIdBefore = sandbox.counters.snapshot();
    const byId = streamingCell([[unique.id]], [["avg_rent"]], "2026-01-01", "2026-01-31", "week");
    expect(await byId.final).toEqual(table);
    expect(requestsSince(byIdBefore)).toEqual({});

    const ambiguous = (await streamingCell([[shared.name]], [["avg_rent"]], "2026-01-01", "2026-01-31")
      .final) as CustomFunctions.Error;
    expect(ambiguous.message).toMatch(/ambiguous: \d+ properties named/);
  });

  it('heads its columns with readable names when headers is "names"', async () => {
    await signIn(`history-${++databaseCounter}`);
    const cell = (headers: string) =>
      streamingCell(
        [[100001]],
        "avg_rent, leases_last_30d",
        "2026-01-01",
        "2026-01-07",
        "week",
        null,
        headers,
      ).final as Promise<unknown[][]>;
    const ids = await cell("ids");
    const names = await cell("names");
    expect(ids[0]).toEqual(["date", "id", "avg_rent", "leases_last_30d"]);
    // The contract's x-field-labels.
    expect(names[0]).toEqual(["Date", "Id", "Avg rent", "Leases, 30 d"]);
    expect(names.slice(1)).toEqual(ids.slice(1));
  });

  it("says what is wrong with bad arguments, without a request", async () => {
    await signIn(`history-${++databaseCounter}`);
    const before = sandbox.counters.snapshot();
    const errorOf = async (...args: Parameters<typeof streamingCell>) =>
      ((await streamingCell(...args).final) as CustomFunctions.Error).message;
    expect(await errorOf([[100001]], "avg_rnt", "2026-01-01", "2026-01-31")).toBe(
      'fields: the property export has no column "avg_rnt". Did you mean "avg_rent"?',
    );
    expect(await errorOf([[100001]], "avg_rent", "2026-01-01", "2026-03-15")).toMatch(
      /^end must be before today/,
    );
    expect(await errorOf([[100001]], "avg_rent", "2026-02-01", "2026-01-01")).toBe(
      "start must not be after end.",
    );
    expect(await errorOf([[100001]], "avg_rent", "2026-01-01", "2026-01-31", "hourly")).toMatch(
      /^interval must be one of day, week, month, quarter/,
    );
    expect(requestsSince(before)).toEqual({});
  });

  it("takes the words of the one vocabulary: asking_rent is the export's avg_rent, occupancy names both with their meanings", async () => {
    await signIn(`history-${++databaseCounter}`);
    const cell = (fields: string) =>
      streamingCell([[100001]], fields, "2026-01-01", "2026-01-07", "week").final as Promise<unknown>;
    const byExportName = (await cell("avg_rent")) as unknown[][];
    const bySynonym = (await cell("Asking rent")) as unknown[][];
    expect(bySynonym[0]).toEqual(["date", "id", "avg_rent"]);
    expect(bySynonym).toEqual(byExportName);
    expect(((await cell("occupancy")) as CustomFunctions.Error).message).toBe(
      '"occupancy" names 2 fields: "advertised_occupancy_pct" (advertised occupancy: the share of units not advertised as available) or "leased_pct" (leased occupancy: the share of units under lease, the occupancy the narrative reports). Name one.',
    );
    expect(((await cell("askng_rent")) as CustomFunctions.Error).message).toBe(
      'fields: the property export has no column "askng_rent". Did you mean "avg_rent"?',
    );
  });
});
