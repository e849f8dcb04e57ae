import {
  recalculateRentFormulas,
  recalculateUnanswered,
  reenterUnresolvedNames,
  rentFormulaBlocks,
} from "../excel/recalculate";
import { session } from "../session/session";
import { wireAsOfPanel } from "./asOfPanel";
import { ChartsController } from "./chartsController";
import { wireChartsPanel } from "./chartsPanel";
import { CompSetsController } from "./compSetsController";
import { ConnectionCheckController } from "./connectionCheckController";
import { wireConnectionPanel } from "./connectionPanel";
import { wireCompSetsPanel } from "./compSetsPanel";
import { element, StatusLine } from "./dom";
import "./fluent";
import { outsideExcel, runInExcel } from "./excelRunner";
import { FreezeController } from "./freezeController";
import { openTabOnDemand } from "./paneTabs";
import { wireProgressStrip } from "./progressStrip";
import { JobsController } from "./jobsController";
import { wireJobsPanel } from "./jobsPanel";
import { RefreshController } from "./refreshController";
import { wireFreezePanel } from "./freezePanel";
import { wireRefreshPanel } from "./refreshPanel";
import { wireUsagePanel } from "./usagePanel";
import { TemplatesController } from "./templatesController";
import { wireTemplatesPanel } from "./templatesPanel";
import { openCredentialVault } from "./secretVault";
import { partitioned } from "./partitionedStorage";
import { MemoryStorage, SettingsStore, type KeyValueStorage } from "./settingsStore";
import { readSignInForm, wireSignInPanel } from "./signInPanel";
import { SignInController } from "./signInController";
import { followOfficeTheme } from "./theme";
import { UsageTracker } from "./usageTracker";

/** localStorage, or memory where the host forbids it (then settings last until the pane closes). */
function runtimeStorage(): KeyValueStorage {
  try {
    const storage = window.localStorage;
    storage.getItem("rent-market.probe");
    return storage;
  } catch {
    return new MemoryStorage();
  }
}

/** The page's entry: builds the controllers over the shared session and wires each section of the pane. */
function start(inExcel: boolean): void {
  followOfficeTheme();
  const usage = new UsageTracker();
  const status = new StatusLine(element("status"), (error) => usage.note(error));
  const settings = new SettingsStore(partitioned(runtimeStorage()));
  const runExcel = inExcel ? runInExcel : outsideExcel;
  const recalculateInExcel = async (recalculate: () => Promise<number>) => {
    if (!inExcel) return;
    await recalculate().catch((error: unknown) => status.error(error));
  };
  const signIn = new SignInController({
    session,
    settings,
    vault: openCredentialVault(),
    // A failed recalculation is reported, but the sign-in itself stands: the cells recalculate with the next
    // edit or Refresh. A sign-out recalculates nothing: every cell keeps what it shows.
    afterSignIn: () => recalculateInExcel(recalculateUnanswered),
    afterAccountChange: () => recalculateInExcel(recalculateRentFormulas),
    accountChangeFormulas: () => (inExcel ? rentFormulaBlocks() : Promise.resolve([])),
  });
  // Cells Excel calculated before the functions were loaded still show #NAME? (a streaming one until entered
  // again): the functions are associated by now, as their bundle runs before Office.onReady calls back.
  if (inExcel) void runExcel(reenterUnresolvedNames).catch((error: unknown) => status.error(error));
  wireSignInPanel({ session, controller: signIn, settings, status });
  wireConnectionPanel(new ConnectionCheckController(session), readSignInForm, status);
  wireCompSetsPanel(session, new CompSetsController(session, runExcel), status);
  wireJobsPanel(session, new JobsController(session, runExcel), status);
  wireRefreshPanel(session, new RefreshController(session, runExcel), status, inExcel);
  wireAsOfPanel(runExcel, status, inExcel);
  wireFreezePanel(new FreezeController(runExcel, session), status);
  wireTemplatesPanel(new TemplatesController(session, runExcel), status);
  wireChartsPanel(new ChartsController(runExcel), status, inExcel);
  wireProgressStrip(session);
  wireUsagePanel(session, usage, status, {
    settings,
    // An allowed pull's cells show #N/A (held): entering them again sends it.
    afterAllow: () => recalculateInExcel(recalculateUnanswered),
  });
  // The formula builder (its field catalogue and search) is loaded the first time its tab opens.
  openTabOnDemand(
    "tab-insert",
    async () => {
      const { wireInsertPanel } = await import(/* webpackChunkName: "insert" */ "./insert/insertPanel");
      wireInsertPanel(session, runExcel, status);
    },
    status,
  );
}

// Excel may call the functions (their bundle has associated them) before Office.onReady: until the pane has
// started, and with it the resume of a kept sign-in, such a cell waits rather than says "Not signed in".
let paneStarted = () => {};
void session.whileResuming(new Promise<void>((resolve) => (paneStarted = resolve)));

void Office.onReady((info) => {
  try {
    start(info.host === Office.HostType.Excel);
  } finally {
    paneStarted();
    // The page stays hidden until its controls are wired (and shown even if wiring failed, so the status line
    // can say so): a click on a control that does nothing yet would be lost.
    element("pane-main").hidden = false;
  }
});
