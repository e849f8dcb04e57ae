import type { Session } from "../session/session";
import { element, fillList, whileBusy, type StatusLine } from "./dom";
import type { UsageTracker } from "./usageTracker";

const PENDING_REFRESH_MS = 5_000;

/** The quota and rate-limit figures, updated on demand, after each sign-in change, and while requests wait. */
export function wireUsagePanel(session: Session, tracker: UsageTracker, status: StatusLine): void {
  let followUp: ReturnType<typeof setTimeout> | undefined;
  const show = async () => {
    const state = session.current;
    element("usage-section").hidden = state === undefined;
    if (!state) return;
    const stats = await state.data.stats();
    fillList(element("usage-lines"), tracker.lines(stats, state.accountId));
    // While a pull is working through the pacing, its "done of total" moves: show it again shortly.
    clearTimeout(followUp);
    if ((stats.requests.backlog?.waiting ?? 0) > 0) followUp = setTimeout(showOrSay, PENDING_REFRESH_MS);
  };
  element<HTMLButtonElement>("usage-reload-button").addEventListener("click", () => {
    void whileBusy(element("usage-reload-button"), status, show);
  });
  const showOrSay = () => void show().catch((error: unknown) => status.error(error));
  // A long wait for the service's limit starts in a cell as often as in the pane: show it when it starts.
  let stopWatching: () => void = () => undefined;
  const watch = () => {
    stopWatching();
    stopWatching = session.current?.data.onRateLimitPause(showOrSay) ?? (() => undefined);
  };
  session.onChange(() => {
    watch();
    showOrSay();
  });
  watch();
  showOrSay();
}
