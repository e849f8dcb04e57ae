import type { Workbook } from "../workbook/workbook";

export type CustomFunctionImplementation = (...args: unknown[]) => unknown;

/**
 * What the host page (playing Excel) offers the stand-in inside the add-in's frame. The workbook and the
 * calculation belong to the host, as they belong to Excel: reloading the pane does not lose the sheet.
 */
export interface HostBridge {
  readonly workbook: Workbook;
  /** `CustomFunctions.associate`: the implementation of a function id of functions.json. */
  registerFunction(id: string, implementation: CustomFunctionImplementation): void;
}

/** The global under which the host page publishes its bridge; the frame reads it from `window.parent`. */
export const HOST_BRIDGE_GLOBAL = "rentMarketHost";
