import { DEFAULT_BATCH_WINDOW_MS, type DataLayerOptions } from "../../src/data/dataLayer";
import { session } from "../../src/session/session";
import { settle, type MovingClock } from "../relay/support/movingClock";

/**
 * The signed-in add-in's data layer on a test's moving clock, with a sandbox in the test's process: every wait
 * of the data layer (its pacing, retries, and the window a batch waits for more cells, as long as the add-in's)
 * ends when the clock passes it, so nothing it does waits on real time, and the test needs no real time to pass
 * either: a few turns of the event loop let the work a move released run.
 */
export function dataOptionsOn(clock: MovingClock): Pick<DataLayerOptions, "now" | "sleep" | "batchSchedule"> {
  return {
    now: clock.now,
    sleep: clock.sleep,
    batchSchedule: (dispatch) => void clock.sleep(DEFAULT_BATCH_WINDOW_MS).then(dispatch),
  };
}

/**
 * Until the signed-in add-in has no request on the wire: the sandbox's work, which the moving clock does not
 * count. The clock stands still meanwhile, however slow the machine. In process, turns of the event loop are all
 * that work needs; over real sockets, `turn` gives it real time (realTurns).
 */
export async function untilAnswered(turn: () => Promise<void> = settle): Promise<void> {
  await turn();
  while ((session.current?.data.pacingBacklog().onTheWire ?? 0) > 0) await turn();
}
