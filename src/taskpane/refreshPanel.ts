import type { Session } from "../session/session";
import { element, fillList, whileBusy, type StatusLine } from "./dom";
import { scopeOf } from "./scopeChoice";
import { statsLines, type RefreshController } from "./refreshController";

/** Refresh with fresh data, the cache's figures and "Clear cache". */
export function wireRefreshPanel(session: Session, controller: RefreshController, status: StatusLine): void {
  const cacheList = element("cache-stats");
  const showStats = async () => {
    if (!session.current) {
      fillList(cacheList, ["Sign in to see the cache."]);
      return;
    }
    fillList(cacheList, statsLines(await controller.stats()));
  };

  element<HTMLButtonElement>("refresh-button").addEventListener("click", () => {
    void whileBusy(element("refresh-button"), status, async () => {
      const count = await controller.refresh(scopeOf(element<HTMLSelectElement>("refresh-scope").value));
      status.show(
        count === 0
          ? "No RENT formulas there to refresh."
          : `Refreshing ${count} RENT ${count === 1 ? "formula" : "formulas"} with fresh data.`,
      );
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
  session.onChange(() => void showStats().catch((error: unknown) => status.error(error)));
  void showStats().catch((error: unknown) => status.error(error));
}
