import type { HostProfile } from "../profiles";
import type { Workbook } from "../workbook/workbook";

export type CustomFunctionImplementation = (...args: unknown[]) => unknown;

/** What the add-in tried that reaches past the workbook: windows, downloads. The tests read it. */
export interface HostOutside {
  /** URLs given to `Office.context.ui.openBrowserWindow` (the person's browser opened them). */
  readonly browserWindows: string[];
  /** URLs given to `window.open`, and whether the host let a window open. */
  readonly windowOpens: { url: string; opened: boolean }[];
  /** Files saved through `<a download href="blob:...">`, and whether the host saved them. */
  readonly blobDownloads: { fileName: string; saved: boolean }[];
}

/**
 * What the host page (playing Excel) offers the stand-in inside the add-in's frame. The workbook and the
 * calculation belong to the host, as they belong to Excel: reloading the pane does not lose the sheet.
 */
export interface HostBridge {
  readonly workbook: Workbook;
  /** The Excel this page plays (test/host/profiles.ts). */
  readonly profile: HostProfile;
  readonly outside: HostOutside;
  /** `CustomFunctions.associate`: the implementation of a function id of functions.json. */
  registerFunction(id: string, implementation: CustomFunctionImplementation): void;
}

/** The global under which the host page publishes its bridge; the frame reads it from `window.parent`. */
export const HOST_BRIDGE_GLOBAL = "rentMarketHost";

/**
 * The global under which a test gives the page the person's default browser (test/e2e/support/defaultBrowser.ts):
 * called with an address, it fetches it as a separate program would.
 */
export const DEFAULT_BROWSER_GLOBAL = "rentMarketDefaultBrowser";
