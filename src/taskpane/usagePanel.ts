import type { Session } from "../session/session";
import { element, fillList, whileBusy, type StatusLine } from "./dom";
import type { UsageTracker } from "./usageTracker";

/** The quota and rate-limit figures, updated on demand and after each sign-in change. */
export function wireUsagePanel(session: Session, tracker: UsageTracker, status: StatusLine): void {
  const show = async () => {
    const state = session.current;
    element("usage-section").hidden = state === undefined;
    if (!state) return;
    fillList(element("usage-lines"), tracker.lines(await state.data.stats(), state.accountId));
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
