/**
 * Soak: the reference workbook (2,102 RENT cells) through the real functions layer while the sandbox fails
 * a fifth of the requests with 500s, drops connections, answers two bursts of 429s and revokes the sign-in's
 * token mid-run. Every cell must end with what a fault-free run shows, and every extra request must be the
 * retry of one injected failure: no fault may multiply requests.
 *
 * The data layer keeps the product's retry policy; only its pacing is lifted (the live limit's pacing would
 * make the test wait minutes without changing what is sent). Its waits (retry backoffs, the pause a 429 asks
 * for) run on a stepping clock: each is recorded and checked against the policy instead of slept. The
 * sandbox's rate-limit window is 1 s so that a 429's Retry-After is 1 s, not the live 300 s.
 */
import "fake-indexeddb/auto";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { session } from "../../src/session/session";
import { formulaOf, referenceWorkbook, WORKBOOK_CLIENT, type Workbook } from "../bench/referenceWorkbook";
import {
  difference,
  TOKEN_PATH,
  total,
  watchTraffic,
  type Counts,
  type SandboxTraffic,
} from "../bench/sandboxTraffic";
import { evaluateWorkbook, type CellOutcome } from "../bench/workbookRunner";
import { backoffDelayMs, DEFAULT_RETRY, rateLimitWaitMs } from "../../src/data/retryPolicy";
import { ApiError } from "../../src/api/errors";
import { countAnswers, NO_ANSWER, type AnswersSeen } from "./support/answersSeen";
import { scheduleFaults } from "./support/faultSchedule";
import { recordedWaits, type RecordedWait } from "./support/recordedWaits";

const UNPACED = { limit: 1_000_000, windowMs: 1000, burst: 1_000_000 };
const SANDBOX_SEED = 1;
const FAULTS = { latencyMs: 5, errorRate: 0.2, dropRate: 0.02, rateLimitBurst: 3 };
/** The token revocation and a second 429 burst land mid-run, while cells wait for answers. */
const REVOKE_AFTER_REQUESTS = 12;
const SECOND_BURST = { afterRequests: 20, rateLimitBurst: 3 };

let sandbox: RunningSandbox;
let traffic: SandboxTraffic;
let answers: AnswersSeen;
let workbook: Workbook;
let databaseCount = 0;
/** The fault-free run every soaked run is compared with. */
let reference: Run;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    seed: SANDBOX_SEED,
    rateLimit: 1_000_000,
    rateLimitWindowSeconds: 1,
  });
  traffic = watchTraffic(sandbox);
  answers = countAnswers();
  workbook = referenceWorkbook(sandbox.context.dataset());
  reference = await evaluateCold();
}, 60_000);

afterAll(async () => {
  answers.stop();
  session.signOut();
  await sandbox.close();
});

interface Run {
  outcomes: CellOutcome[];
  /** Requests per path counted at the sandbox while the workbook evaluated (sign-in excluded). */
  requests: Counts;
  total: number;
  /** What the add-in received meanwhile: answers per status, and NO_ANSWER for dropped connections. */
  answers: Counts;
  /** The Retry-After of each 429 the add-in received meanwhile. */
  retryAfters: string[];
  /** Every wait the data layer asked for meanwhile, in order. */
  waits: RecordedWait[];
}

/**
 * A new sign-in over an empty cache, then the whole workbook, with `faults` armed in between (so that they
 * hit the workbook, not the sign-in); requests counted at the sandbox and answers at the client meanwhile.
 */
async function evaluateCold(faults: () => () => void = () => () => undefined): Promise<Run> {
  const clock = recordedWaits();
  session.useDataOptions({
    databaseName: `soak-${process.pid}-${++databaseCount}`,
    pacing: UNPACED,
    now: clock.now,
    sleep: clock.sleep,
    random: clock.random,
  });
  await session.signIn(
    { serviceUrl: sandbox.url, tokenUrl: `${sandbox.url}${TOKEN_PATH}` },
    { kind: "client", ...WORKBOOK_CLIENT },
  );
  const before = traffic.snapshot();
  const answersBefore = answers.snapshot();
  const retryAftersBefore = answers.retryAfters().length;
  clock.waits.length = 0;
  const disarm = faults();
  let outcomes: CellOutcome[];
  try {
    outcomes = await evaluateWorkbook(workbook.cells);
  } finally {
    disarm();
  }
  const requests = difference(before.requests, traffic.snapshot().requests);
  return {
    outcomes,
    requests,
    total: total(requests),
    answers: difference(answersBefore, answers.snapshot()),
    retryAfters: answers.retryAfters().slice(retryAftersBefore),
    waits: [...clock.waits],
  };
}

const retriesAllowed = Array.from({ length: DEFAULT_RETRY.maxAttempts - 1 }, (_, index) => index + 1);

/** Which retry of its request a backoff can be: the first whose policy delay, at the jitter drawn, it is. */
function retryOf(wait: RecordedWait & { kind: "backoff" }): number | undefined {
  return retriesAllowed.find((retry) => backoffDelayMs(DEFAULT_RETRY, retry, () => wait.jitter) === wait.ms);
}

/**
 * How many backoffs of `run` were first retries, second retries, and so on. A request is retried for the
 * (n+1)th time only after its nth, so with the policy's doubling the counts never grow along the list.
 */
function backoffsPerRetry(run: Run): number[] {
  const retries = run.waits.map((wait) => (wait.kind === "backoff" ? retryOf(wait) : undefined));
  return retriesAllowed.map((retry) => retries.filter((each) => each === retry).length);
}

/** The waits of `run` that the product's retry policy would not have asked for. */
function waitsOffPolicy(run: Run): string[] {
  const pauses = new Set(
    run.retryAfters.map((header) =>
      rateLimitWaitMs(DEFAULT_RETRY, new ApiError("rate_limited", "", { retryAfterSeconds: Number(header) })),
    ),
  );
  return run.waits.flatMap((wait) => {
    const onPolicy = wait.kind === "backoff" ? retryOf(wait) !== undefined : pauses.has(wait.ms);
    return onPolicy ? [] : [JSON.stringify(wait)];
  });
}

/** Waits of one kind in `run`. */
function waitsOf(run: Run, kind: RecordedWait["kind"]): RecordedWait[] {
  return run.waits.filter((wait) => wait.kind === kind);
}

function cellsThatDiffer(run: Run, reference: Run): string[] {
  return workbook.cells.flatMap((cell, index) =>
    JSON.stringify(run.outcomes[index]) === JSON.stringify(reference.outcomes[index])
      ? []
      : [`${formulaOf(cell)} shows ${JSON.stringify(run.outcomes[index]).slice(0, 200)}`],
  );
}

/** The faults of the soak, on the fault stream of `seed`. */
function soakFaults(seed: number): () => () => void {
  return () => {
    sandbox.context.faults.reseed(seed);
    sandbox.context.faults.update(FAULTS);
    const stop = scheduleFaults(sandbox, [
      {
        afterRequests: REVOKE_AFTER_REQUESTS,
        apply: (target) => target.context.tokens.revoke({ clientId: WORKBOOK_CLIENT.clientId }),
      },
      {
        afterRequests: SECOND_BURST.afterRequests,
        apply: ({ context }) => context.faults.update({ rateLimitBurst: SECOND_BURST.rateLimitBurst }),
      },
    ]);
    return () => {
      stop();
      sandbox.context.faults.reset();
    };
  };
}

describe("the reference workbook under faults", () => {
  let soaked: Run;

  beforeAll(async () => {
    // The sandbox's own seed: the stream every fault of this run is drawn from.
    soaked = await evaluateCold(soakFaults(SANDBOX_SEED));
  }, 60_000);

  it("met every kind of fault", () => {
    expect(soaked.answers["500"]).toBeGreaterThan(0);
    expect(soaked.answers["429"]).toBeGreaterThan(0);
    expect(soaked.answers["401"]).toBeGreaterThan(0);
    expect(soaked.answers[NO_ANSWER]).toBeGreaterThan(0);
    expect(reference.answers).toEqual({ "200": reference.total });
  });

  it("ends every cell with the value of the fault-free run", () => {
    expect(reference.outcomes.length).toBe(workbook.cells.length);
    expect(cellsThatDiffer(soaked, reference)).toEqual([]);
  });

  it("spends one more request per injected failure, and one token renewal for the revocation", () => {
    const failed = total(soaked.answers) - (soaked.answers["200"] ?? 0);
    expect(soaked.requests[TOKEN_PATH]).toBe(1);
    expect(reference.requests[TOKEN_PATH]).toBeUndefined();
    // Every request the sandbox saw is one the add-in sent; the successes are the fault-free run's and the token's.
    expect(total(soaked.answers)).toBe(soaked.total);
    expect(soaked.answers["200"]).toBe(reference.total + 1);
    expect(soaked.total).toBe(reference.total + failed + 1);
  });

  it("waits as the retry policy asks: a backoff per 500 or dropped connection, and the pause each 429 names", () => {
    expect(reference.waits).toEqual([]);
    expect(waitsOffPolicy(soaked)).toEqual([]);
    expect(waitsOf(soaked, "backoff")).toHaveLength(
      (soaked.answers["500"] ?? 0) + (soaked.answers[NO_ANSWER] ?? 0),
    );
    // The 429s of one burst share one pause (src/data/requestGate.ts); two bursts, at least two pauses.
    const perRetry = backoffsPerRetry(soaked);
    expect(perRetry[0]).toBeGreaterThan(0);
    expect(perRetry).toEqual([...perRetry].sort((a, b) => b - a));
    expect(waitsOf(soaked, "gate").length).toBeGreaterThanOrEqual(2);
    expect(waitsOf(soaked, "gate").length).toBeLessThanOrEqual(soaked.answers["429"] ?? 0);
  });
});

/**
 * The 1.5x budget, judged over three independent fault streams: one 44-request run draws too few faults
 * to judge a rate by (the first stream's start happens to be failure-heavy: about 21 failures where 12 are
 * expected). It holds for the faults that scale with the traffic (500s, drops); the revocation (a 401 for
 * each request already sent with the revoked token, plus one token request) and the 429 bursts (one request
 * each) cost about 10 requests a run whatever the workbook, so they are counted apart (README, Reliability).
 */
describe("the reference workbook over three fault streams", () => {
  const soaked: Run[] = [];

  beforeAll(async () => {
    for (const seed of [101, 102, 103]) soaked.push(await evaluateCold(soakFaults(seed)));
  }, 90_000);

  it("ends every cell of every run with the value of the fault-free run", () => {
    for (const run of soaked) expect(cellsThatDiffer(run, reference)).toEqual([]);
  });

  it("waits in every run only as the retry policy asks", () => {
    for (const run of soaked) {
      expect(waitsOffPolicy(run)).toEqual([]);
      expect(waitsOf(run, "backoff")).toHaveLength((run.answers["500"] ?? 0) + (run.answers[NO_ANSWER] ?? 0));
      const perRetry = backoffsPerRetry(run);
      expect(perRetry).toEqual([...perRetry].sort((a, b) => b - a));
    }
  });

  it("stays under 1.5x the fault-free requests, apart from the revocation's and the 429 bursts' fixed cost", () => {
    const fixedCost = (run: Run) => (run.answers["401"] ?? 0) + (run.answers["429"] ?? 0) + 1;
    const scaled = soaked.reduce((sum, run) => sum + run.total - fixedCost(run), 0);
    expect(scaled).toBeLessThan(1.5 * reference.total * soaked.length);
  });
});
