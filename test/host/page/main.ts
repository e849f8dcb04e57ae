/**
 * The host page: plays Excel around the real add-in. It owns the workbook and the calculation, publishes
 * the bridge the stand-in (inside the pane's frame) uses, draws the grid, and then loads the add-in's own
 * taskpane.html in the frame beside it.
 */
import { hostProfile } from "../profiles";
import { HOST_BRIDGE_GLOBAL, type HostBridge } from "../standin/hostBridge";
import { keepSaved, loadSaved, restoreInto, STORAGE_KEY } from "../workbook/persistence";
import { Workbook } from "../workbook/workbook";
import { Calculator, type FunctionMetadata } from "./calculator";
import { ChartView } from "./chartView";
import { GridView } from "./gridView";

export interface HostConfig {
  /** The custom functions namespace of the manifest ("RENT"). */
  namespace: string;
  /** Where the add-in's pane page is (the shared runtime's page). */
  taskpaneUrl: string;
  functionsMetadataUrl: string;
}

/** The bridge, and the calculator for people and tests who want to see what recalculation did. */
export type HostPageBridge = HostBridge & { calculator: Calculator };

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The host page lacks #${id}.`);
  return found as T;
}

async function json<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

async function start(): Promise<void> {
  const config = await json<HostConfig>("/host/config.json");
  const metadata = await json<{ functions: FunctionMetadata[] }>(config.functionsMetadataUrl);

  // The Excel this page plays: ?host=web|m365-windows|m365-mac|office2024-windows|retail2024-windows|office2021-windows
  // (test/host/profiles.ts).
  const profile = hostProfile(new URLSearchParams(location.search).get("host"));
  element("host-name").textContent = profile.label;
  const workbook = new Workbook();
  const saved = loadSaved(localStorage);
  if (saved) restoreInto(workbook, saved);
  keepSaved(workbook, localStorage, window);
  const calculator = new Calculator(workbook, config.namespace, metadata.functions, profile);
  // Excel on the web runs custom functions when a workbook opens; desktop Excel shows the saved values.
  if (saved && profile.recalculatesOnOpen) calculator.calculateAll();

  const bridge: HostPageBridge = {
    workbook,
    calculator,
    profile,
    outside: { browserWindows: [], windowOpens: [], blobDownloads: [] },
    registerFunction: (id, implementation) => calculator.registerFunction(id, implementation),
  };
  Object.assign(window, { [HOST_BRIDGE_GLOBAL]: bridge });

  new GridView(workbook);
  new ChartView(workbook, element("chart-layer"), element<HTMLTableElement>("grid"));
  const status = element("calc-status");
  let statusScheduled = false;
  workbook.onChange(() => {
    if (statusScheduled) return;
    statusScheduled = true;
    requestAnimationFrame(() => {
      statusScheduled = false;
      const calculating = calculator.calculatingCount();
      status.textContent = calculating === 0 ? "Ready" : `Calculating ${calculating} formula(s)…`;
    });
  });
  element("calculate-button").addEventListener("click", () => calculator.calculate("Full"));
  element("new-workbook-button").addEventListener("click", () => {
    localStorage.removeItem(STORAGE_KEY);
    location.reload();
  });

  const frame = element<HTMLIFrameElement>("taskpane-frame");
  frame.src = config.taskpaneUrl;
}

start().catch((error: unknown) => {
  element("calc-status").textContent = `The host page failed to start: ${String(error)}`;
});
