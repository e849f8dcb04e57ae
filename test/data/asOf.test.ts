/**
 * Every answer keeps when it was fetched and the date its data describes: a call's trail notes, per kind of
 * request and source, how many answers, fetched when (the layer's clock), the data's date (the sandbox's
 * collected_at / analysis_date), and until when each is fresh, as the clock moves past the service's next posting.
 */
import "fake-indexeddb/auto";
import { type RunningSandbox } from "../../sandbox/server";
import { startInProcessSandbox } from "../support/inProcessSandbox";
import { AnswerTrail } from "../../src/data/answerTrail";
import { LOOKUP, NARRATIVES } from "../../src/data/endpoints";
import { DEMO_CLIENTS } from "../../sandbox/data/clients";
import {
  cellAsOf,
  flushCellAsOf,
  forgetCellAsOfInMemory,
  rememberedCellAsOf,
  useWorkbookIdentity,
} from "../../src/functions/cellAsOf";
import { property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { fakeInvocation } from "../support/invocation";
import { underwritingWorkbook } from "../excel/support/rentWorkbook";
import { FreezeController } from "../../src/taskpane/freezeController";
import { UNPACED } from "../support/signedInSandbox";
import { ACCOUNT_ID, layerFor, propertyIds } from "./support/dataHarness";
import { PROPERTY_DETAILS } from "../../src/data/batchedEndpoints";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startInProcessSandbox({ propertyCount: 2000, rateLimit: 100_000 });
});

afterAll(async () => {
  await sandbox.close();
});

const MINUTE = 60_000;
/** The service's posting after 2026-11-27 09:00 UTC (04:00 EST): 07:00 EST that day, then the next day's. */
const NEXT_POSTING = Date.UTC(2026, 10, 27, 12, 0);
const POSTING_AFTER = Date.UTC(2026, 10, 28, 12, 0);

it("notes each answer's source, fetch time, data date and freshness, and asks again once the clock passes it", async () => {
  let now = Date.UTC(2026, 10, 27, 9, 0);
  const { layer } = layerFor(sandbox, { now: () => now });
  const ids = propertyIds(sandbox, 3);
  const today = sandbox.clock.today();

  const first = new AnswerTrail();
  await layer.readMany(PROPERTY_DETAILS, {}, ids, { accountId: ACCOUNT_ID, trail: first });
  const fetchedAt = now;
  expect(first.lines()).toEqual([
    {
      kind: "property",
      source: "network",
      answers: 3,
      firstStoredAt: fetchedAt,
      lastStoredAt: fetchedAt,
      freshUntil: NEXT_POSTING,
      firstDataDate: today,
      lastDataDate: today,
    },
  ]);

  // Ten minutes on: the same answers from the cache, still dated when they were fetched.
  now += 10 * MINUTE;
  const second = new AnswerTrail();
  const known = layer.knownMany(PROPERTY_DETAILS, {}, ids, { accountId: ACCOUNT_ID, trail: second });
  expect(known?.records.size).toBe(3);
  // Asking again for what memory answered notes nothing twice.
  await layer.readMany(PROPERTY_DETAILS, {}, ids, { accountId: ACCOUNT_ID, trail: second });
  expect(second.lines()).toEqual([
    expect.objectContaining({
      source: "cache",
      answers: 3,
      firstStoredAt: fetchedAt,
      lastStoredAt: fetchedAt,
    }),
  ]);

  // Past the next posting: the service is asked again, and the answers are dated now.
  now = NEXT_POSTING + MINUTE;
  const third = new AnswerTrail();
  await layer.readMany(PROPERTY_DETAILS, {}, ids, { accountId: ACCOUNT_ID, trail: third });
  expect(third.lines()).toEqual([
    expect.objectContaining({
      source: "network",
      answers: 3,
      firstStoredAt: now,
      freshUntil: POSTING_AFTER,
    }),
  ]);
});

it("dates a narrative by its analysis_date and a request whose answer carries no date by nothing", async () => {
  const now = Date.UTC(2026, 10, 27, 9, 0);
  const { layer } = layerFor(sandbox, { now: () => now });
  const boundaryId = sandbox.context.dataset().geography.boundaries[0]?.id as number;
  const trail = new AnswerTrail();
  const narrative = await layer.read(NARRATIVES, { boundaryId }, { accountId: ACCOUNT_ID, trail });
  await layer.read(LOOKUP, { city: "Austin", per_page: 2 }, { accountId: ACCOUNT_ID, trail });
  const analysisDate = narrative.value.data[0]?.attributes.analysis_date;
  expect(analysisDate).toMatch(/^\d{4}-\d\d-\d\d$/);
  expect(trail.lines()).toEqual([
    expect.objectContaining({
      kind: "narrative",
      source: "network",
      firstDataDate: analysisDate,
      freshUntil: NEXT_POSTING,
    }),
    expect.objectContaining({
      kind: "lookup",
      source: "network",
      firstDataDate: undefined,
      lastDataDate: undefined,
    }),
  ]);
});

describe("a cell's as-of across a reload", () => {
  const PRO = DEMO_CLIENTS.find((client) => client.clientId === "demo-pro")!;
  let databaseCounter = 0;

  async function signIn(databaseName: string): Promise<void> {
    session.useDataOptions({ ...UNPACED, databaseName });
    await session.signIn(
      { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}/oauth/token` },
      { kind: "client", clientId: PRO.clientId, clientSecret: PRO.clientSecret },
    );
  }

  /** A reload: this runtime's memory goes, the same person signs in over the same IndexedDB database. */
  async function reload(databaseName: string, workbook: string): Promise<void> {
    forgetCellAsOfInMemory();
    await signIn(databaseName);
    await useWorkbookIdentity(workbook);
  }

  afterEach(() => session.signOut());

  it("is kept by workbook and cell, so a reloaded pane still shows it; another workbook's cell is another", async () => {
    const database = `asof-reload-${++databaseCounter}`;
    await signIn(database);
    await useWorkbookIdentity("workbook-a");
    const ids = propertyIds(sandbox, 2);
    await property([ids], [["asking_rent"]], fakeInvocation("'Q3 deals'!C2"));
    await flushCellAsOf();
    const before = cellAsOf("Q3 deals", "C2");
    expect(before?.lines).toEqual([expect.objectContaining({ kind: "property", answers: 2 })]);

    await reload(database, "workbook-a");
    expect(cellAsOf("Q3 deals", "C2")).toBeUndefined();
    await expect(rememberedCellAsOf("Q3 deals", "C2")).resolves.toEqual(before);
    // The same cell of another workbook, and another cell of this one, were never calculated.
    await expect(rememberedCellAsOf("Q3 deals", "C3")).resolves.toBeUndefined();
    await reload(database, "workbook-b");
    await expect(rememberedCellAsOf("Q3 deals", "C2")).resolves.toBeUndefined();
  });

  it("is written beside a frozen value after a reload, from what the cache kept", async () => {
    const database = `asof-reload-${++databaseCounter}`;
    await signIn(database);
    await useWorkbookIdentity("workbook-a");
    await property([propertyIds(sandbox, 1)], [["asking_rent"]], fakeInvocation("Model!B2"));
    await flushCellAsOf();
    await reload(database, "workbook-a");

    const excel = underwritingWorkbook();
    excel.selection = { sheet: "Model", rect: { row: 1, column: 1, rowCount: 1, columnCount: 1 } };
    await new FreezeController(excel.excel.run, session).freeze({ kind: "selection" });

    expect(excel.comments).toEqual([
      { address: "Model!B2", content: expect.stringMatching(/As of: .*fetched .*\(from the service\)\.$/) },
    ]);
  });

  it("is removed on sign-out with the person's cached answers", async () => {
    const database = `asof-reload-${++databaseCounter}`;
    await signIn(database);
    await useWorkbookIdentity("workbook-a");
    await property([propertyIds(sandbox, 1)], [["asking_rent"]], fakeInvocation("Sheet1!B2"));
    await flushCellAsOf();
    // Kept: a reload shows it...
    await reload(database, "workbook-a");
    await expect(rememberedCellAsOf("Sheet1", "B2")).resolves.toBeDefined();
    // ...until the person signs out, which forgets it in memory too (the cell calculated again after the reload).
    await property([propertyIds(sandbox, 1)], [["asking_rent"]], fakeInvocation("Sheet1!B2"));
    expect(cellAsOf("Sheet1", "B2")).toBeDefined();
    await session.signOut();
    expect(cellAsOf("Sheet1", "B2")).toBeUndefined();

    await reload(database, "workbook-a");
    await expect(rememberedCellAsOf("Sheet1", "B2")).resolves.toBeUndefined();
  });
});
