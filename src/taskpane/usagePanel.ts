import type { Session } from "../session/session";
import { coalesced, element, fillList, whileBusy, type StatusLine } from "./dom";
import type { SettingsStore } from "./settingsStore";
import type { UsageTracker } from "./usageTracker";

/**
 * The quota and rate-limit figures, updated on demand, after each sign-in change, and whenever the pacing
 * moves (requests waiting or let through, a pause the service asked for, the limit it announced).
 */
export function wireUsagePanel(
  session: Session,
  tracker: UsageTracker,
  status: StatusLine,
  quota: {
    settings: Pick<SettingsStore, "quotaShare" | "rememberQuotaShare">;
    afterAllow: () => Promise<void>;
  },
): void {
  const shareInput = element<HTMLInputElement>("quota-share");
  const allowButton = element<HTMLButtonElement>("quota-allow-button");
  // The bulk export quota guard: the pull it holds, and the share a pull may spend without asking.
  const showHeld = () => {
    const held = session.current?.data.quota.held;
    element("quota-held").hidden = allowButton.hidden = held === undefined;
    element("quota-held").textContent = held?.message ?? "";
  };
  const applyShare = () => {
    const guard = session.current?.data.quota;
    const stored = quota.settings.quotaShare();
    if (guard && stored !== undefined) guard.configure({ maxShare: stored });
    if (guard) shareInput.value = String(Math.round(guard.current.maxShare * 100));
  };
  shareInput.addEventListener("change", () => {
    const percent = Number(shareInput.value);
    if (!(percent >= 1 && percent <= 100))
      return status.error(new Error("The share is a percent from 1 to 100."));
    quota.settings.rememberQuotaShare(percent / 100);
    applyShare();
  });
  allowButton.addEventListener("click", () => {
    void whileBusy(allowButton, status, async () => {
      session.current?.data.quota.allowHeld();
      await quota.afterAllow();
    });
  });
  let stopHeld: () => void = () => undefined;
  const show = async () => {
    const state = session.current;
    element("usage-section").hidden = state === undefined;
    if (!state) return;
    const stats = await state.data.stats();
    const standing = state.data.quota.standing(state.accountId);
    fillList(element("usage-lines"), tracker.lines(stats, state.accountId, standing));
  };
  element<HTMLButtonElement>("usage-reload-button").addEventListener("click", () => {
    void whileBusy(element("usage-reload-button"), status, show);
  });
  const showOrSay = () => void show().catch((error: unknown) => status.error(error));
  // Waits for the service's limit start in cells as often as in the pane: show them as they come and go.
  const showSoon = coalesced(showOrSay);
  let stopWatching: () => void = () => undefined;
  const watch = () => {
    stopWatching();
    stopWatching = session.current?.data.onProgressChange(showSoon) ?? (() => undefined);
  };
  const followGuard = () => {
    stopHeld();
    stopHeld = session.current?.data.quota.onChange(showHeld) ?? (() => undefined);
    applyShare();
    showHeld();
  };
  session.onChange(() => {
    watch();
    followGuard();
    showOrSay();
  });
  watch();
  followGuard();
  showOrSay();
}
