/**
 * The team gate's turns with the live budget (100 per 300 s, 50 at once) and a clock the test moves: a request
 * that someone else also waits for (an identical read in flight) goes out on the first turn of either.
 */
import { LocalBudget } from "../../relay/store/localCoordination";
import { ReportedLimit, TeamGate } from "../../relay/upstream/teamGate";
import { LIVE_PACING } from "../../src/data/tokenBucket";
import { MovingClock, settle } from "./support/movingClock";

test("a request joined by a colleague goes out on the colleague's turn, not after the backlog", async () => {
  const clock = new MovingClock();
  const gate = new TeamGate(new LocalBudget(clock.now), new ReportedLimit(LIVE_PACING), { clock });
  const granted: string[] = [];
  const enter = (name: string) => {
    const ticket = gate.enter("backlog");
    void ticket.granted.then(() => granted.push(name));
    return ticket;
  };
  for (let index = 0; index < LIVE_PACING.burst; index++) enter(`burst-${index}`);
  await settle();
  expect(granted).toHaveLength(LIVE_PACING.burst);

  for (let index = 0; index < 10; index++) enter(`backlog-${index}`);
  const shared = enter("shared");
  shared.join("colleague");
  expect(gate.waiting()).toEqual({ backlog: 11, colleague: 1 });

  await clock.advance(6000);
  await clock.advance(6000);
  expect(granted.slice(LIVE_PACING.burst)).toEqual(["backlog-0", "shared"]);
  expect(gate.waiting()).toEqual({ backlog: 9 });
});
