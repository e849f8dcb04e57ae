import type { Session } from "../session/session";
import { coalesced, element, showProgress } from "./dom";
import { progressWords } from "./progressText";

/**
 * How often the time left is worked out again while requests wait: it runs down between turns too (a pause
 * the service asked for lets nothing through). Reading the pacing's state sends no request.
 */
const TICK_MS = 5_000;

/**
 * Writes `text` only when it changed, so the live region announces changes, not every redraw; no text hides
 * the line.
 */
function say(id: string, text: string | undefined): void {
  const target = element(id);
  target.hidden = text === undefined;
  if (text !== undefined && target.textContent !== text) target.textContent = text;
}

/**
 * The strip above the tabs' panels: while requests wait for their turn at the service's pace or cells wait
 * for export jobs, it shows on every tab, without being asked, what waits, done of total, the time left and
 * why; it hides when nothing waits. It follows the signed-in data layer's progress
 * (DataLayer.onProgressChange) and a new sign-in's.
 */
export function wireProgressStrip(session: Session): void {
  const strip = element("progress-strip");
  let tick: ReturnType<typeof setInterval> | undefined;
  const show = () => {
    const work = session.current?.data.progress();
    const waits = work !== undefined && (work.requests.waiting > 0 || work.exportJobs.running > 0);
    strip.hidden = !waits;
    if (!waits) {
      clearInterval(tick);
      tick = undefined;
      return;
    }
    const words = progressWords(work);
    say("progress-waiting", words.waiting);
    say("progress-done", words.doneOfTotal);
    say("progress-jobs", words.jobs);
    say("progress-why", words.why);
    const bar = element<HTMLProgressElement>("progress-bar");
    if (work.requests.waiting > 0) showProgress(bar, work.requests.done, work.requests.total);
    else bar.hidden = true;
    tick ??= setInterval(show, TICK_MS);
  };
  const showSoon = coalesced(show);
  let stop: () => void = () => undefined;
  const follow = () => {
    stop();
    stop = session.current?.data.onProgressChange(showSoon) ?? (() => undefined);
    show();
  };
  session.onChange(follow);
  follow();
}
