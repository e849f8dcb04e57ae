/**
 * The relay benchmark's fairness figure (issue 32): with the live budget (100 per 300 s, 50 at once) and a clock
 * the benchmark moves, how long a person's single read waits at the team gate while a colleague of the same
 * account has 150 forecast variants of a property the person also reads; beside it, the same read's wait with
 * nobody else asking. Waits are read on the moving clock (the budget's time), never on the wall clock.
 */
import { startSandbox } from "../../sandbox/server";
import { LIVE_PACING } from "../../src/data/tokenBucket";
import { realTurns, until } from "../relay/support/movingClock";
import { startLiveBudgetRelay, type LiveBudgetRelay } from "../relay/support/liveBudgetRelay";

const VARIANTS = 150;
/** The clock's step: the figure's resolution. */
const STEP_MS = 250;
/** Ten minutes of the budget's time at most. */
const MAX_STEPS = 2400;

export interface FairnessReport {
  /** The colleague's forecast variants of the person's property. */
  variants: number;
  /** One turn: the time between two requests once the burst is spent (the live limit's refill). */
  turn_ms: number;
  /** The person's next read with nobody else asking. */
  alone_wait_ms: number;
  /** The same read while a colleague's 150 variants of the person's property wait or were refused. */
  beside_variants_wait_ms: number;
  /** Turns of the colleague's the read waited beyond its wait alone (the bound: one). */
  extra_turns_beside_variants: number;
  /** What became of the read beside the variants (200, or the relay's 429). */
  beside_variants_status: number;
  colleague_refused_429: number;
}

/** Moves the clock in steps until the read is answered (or refused); the clock time that took. */
async function waitAtGate(relay: LiveBudgetRelay, person: string, answer: Promise<Response | undefined>) {
  const outcome: { settled: boolean; status: number } = { settled: false, status: 0 };
  void answer.then((response) => Object.assign(outcome, { settled: true, status: response?.status ?? 0 }));
  await until(`${person}'s read to reach the gate`, () => relay.waiting(person) > 0 || outcome.settled);
  const start = relay.clock.now();
  for (let step = 0; step < MAX_STEPS && !outcome.settled; step++) {
    await relay.clock.advance(STEP_MS);
    await realTurns();
  }
  const waited = relay.clock.now() - start;
  await until(`${person}'s answer`, () => outcome.settled);
  return { waited, status: outcome.status };
}

async function run(withVariants: boolean): Promise<{ waited: number; status: number; refused: number }> {
  const sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000, logger: false });
  const relay = await startLiveBudgetRelay(sandbox);
  const gone = new AbortController();
  try {
    const [person, colleague, burster] = await Promise.all(
      ["person", "colleague", "burster"].map((name) => relay.addUser(name, [100])),
    );
    const ids = sandbox
      .dataset()
      .properties.filter((property) => property.hasForecast)
      .map((property) => property.id);
    const [shared, next] = ids as [number, number];
    const forecast = (key: string, id: number, offset: string) =>
      relay
        .api(
          key as string,
          `/v1/properties/${id}/forecasts`,
          {
            account_id: 100,
            offset,
            aggregations: [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" }],
          },
          gone.signal,
        )
        .catch(() => undefined);
    const burst = Array.from({ length: LIVE_PACING.burst }, (_, index) =>
      relay.api(burster as string, `/v1/properties/lookup?account_id=100&per_page=1&page=${index + 1}`),
    );
    await Promise.all(burst);

    // The person's read of a property; the colleague's variants of the same property's forecast.
    let refused = 0;
    const first = forecast(person as string, shared, "0d");
    await until("the person's first read at the gate", () => relay.waiting("person") === 1);
    if (withVariants) {
      for (let day = 1; day <= VARIANTS; day++)
        void forecast(colleague as string, shared, `${day}d`).then((answer) => {
          if (answer?.status === 429) refused += 1;
        });
      await until("the variants to queue", () => relay.waiting("colleague") + refused === VARIANTS);
    }
    await waitAtGate(relay, "person", first);
    // The figure: the person's next read.
    const { waited, status } = await waitAtGate(relay, "person", forecast(person as string, next, "0d"));
    return { waited, status, refused };
  } finally {
    gone.abort();
    await until("the gate to empty", () => Object.keys(relay.relay.gate.waiting()).length === 0);
    await relay.close();
    await sandbox.close();
  }
}

export async function fairnessFigure(): Promise<FairnessReport> {
  const alone = await run(false);
  const beside = await run(true);
  const turnMs = LIVE_PACING.windowMs / (LIVE_PACING.limit - LIVE_PACING.burst);
  return {
    variants: VARIANTS,
    turn_ms: turnMs,
    alone_wait_ms: alone.waited,
    beside_variants_wait_ms: beside.waited,
    extra_turns_beside_variants: (beside.waited - alone.waited) / turnMs,
    beside_variants_status: beside.status,
    colleague_refused_429: beside.refused,
  };
}
