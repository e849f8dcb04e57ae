import type { Session } from "../session/session";
import { element, fillList, whileBusy, type StatusLine } from "./dom";
import { lastRefreshText, refreshedText } from "./asOfText";
import { scopeOf } from "./scopeChoice";
import { statsLines, type RefreshController } from "./refreshController";

/** Refresh with fresh data, the cache's figures and "Clear cache". */
export function wireRefreshPanel(
  session: Session,
  controller: RefreshController,
  status: StatusLine,
  inExcel: boolean,
): void {
  const cacheList = element("cache-stats");
  const showStats = async () => {
    if (!session.current) {
      fillList(cacheList, ["Sign in to see the cache."]);
      return;
    }
    fillList(cacheList, statsLines(await controller.stats()));
  };

  const lastRefresh = element("last-refresh");
  const showLastRefresh = async () => {
    lastRefresh.textContent = lastRefreshText(await controller.lastRefresh(), Date.now());
  };
  element<HTMLButtonElement>("refresh-button").addEventListener("click", () => {
    void whileBusy(element("refresh-button"), status, async () => {
      const outcome = await controller.refresh(
        scopeOf(element<HTMLSelectElement>("refresh-scope").value),
        (count) =>
          status.show(`Refreshing ${count} RENT ${count === 1 ? "formula" : "formulas"} with fresh data.`),
      );
      if (outcome.at === undefined) {
        status.show("No RENT formulas there to refresh.");
        return;
      }
      status.show(
        refreshedText(outcome.formulas, outcome.at, outcome.stillCalculating, Date.now(), outcome.report),
      );
      await showLastRefresh();
    });
  });
  element<HTMLButtonElement>("cache-stats-button").addEventListener("click", () => {
    void whileBusy(element("cache-stats-button"), status, showStats);
  });
  element<HTMLButtonElement>("clear-cache-button").addEventListener("click", () => {
    void whileBusy(element("clear-cache-button"), status, async () => {
      await controller.clearCache();
      await showStats();
      status.show("The cache is cleared: the next calculation asks the service again.");
    });
  });
  // The workbook's own memory of its last refresh: read when the pane opens (after a reload, on another computer).
  if (inExcel) void showLastRefresh().catch((error: unknown) => status.error(error));
  session.onChange(() => void showStats().catch((error: unknown) => status.error(error)));
  void showStats().catch((error: unknown) => status.error(error));
}
