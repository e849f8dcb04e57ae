import { element, type StatusLine } from "./dom";

/**
 * Runs `load` once, the first time the tab is shown (at start if it is the open one), so a tab's code is
 * fetched only when someone opens it. A failed load is reported and tried again on the next opening.
 */
export function openTabOnDemand(tabId: string, load: () => Promise<void>, status: StatusLine): void {
  const tablist = element(tabId).closest("fluent-tablist");
  if (!tablist) throw new Error(`#${tabId} is not in a tab list.`);
  let loading: Promise<void> | undefined;
  const openIfShown = () => {
    // The property, not the attribute: the tab list reflects it to the attribute only after its change event.
    const active = (tablist as Element & { activeid?: string }).activeid ?? tablist.getAttribute("activeid");
    if (loading || active !== tabId) return;
    loading = load().catch((error: unknown) => {
      loading = undefined;
      status.error(error);
    });
  };
  tablist.addEventListener("change", openIfShown);
  openIfShown();
}
