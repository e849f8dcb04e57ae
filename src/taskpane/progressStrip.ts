import type { Session } from "../session/session";
import { coalesced, element, showProgress } from "./dom";
import { pacingWords } from "./pacingText";

/**
 * How often the time left is worked out again while requests wait: it runs down between turns too (a pause
 * the service asked for lets nothing through). Reading the pacing's state sends no request.
 */
const TICK_MS = 5_000;

/** Writes `text` only when it changed, so the live region announces changes, not every redraw. */
function say(id: string, text: string): void {
  const target = element(id);
  if (target.textContent !== text) target.textContent = text;
}

/**
 * The strip above the tabs' panels: while requests wait for their turn at the service's pace, it shows on
 * every tab, without being asked, what waits, done of total, the time left and why; it hides when nothing
 * waits. It follows the signed-in data layer's pacing (DataLayer.onPacingChange) and a new sign-in's.
 */
export function wireProgressStrip(session: Session): void {
  const strip = element("progress-strip");
  let tick: ReturnType<typeof setInterval> | undefined;
  const show = () => {
    const progress = session.current?.data.pacing();
    strip.hidden = progress === undefined || progress.waiting === 0;
    if (progress === undefined || progress.waiting === 0) {
      clearInterval(tick);
      tick = undefined;
      return;
    }
    const words = pacingWords(progress);
    say("progress-waiting", words.waiting);
    say("progress-done", words.doneOfTotal);
    say("progress-why", words.why);
    showProgress(element<HTMLProgressElement>("progress-bar"), progress.done, progress.total);
    tick ??= setInterval(show, TICK_MS);
  };
  const showSoon = coalesced(show);
  let stop: () => void = () => undefined;
  const follow = () => {
    stop();
    stop = session.current?.data.onPacingChange(showSoon) ?? (() => undefined);
    show();
  };
  session.onChange(follow);
  follow();
}
