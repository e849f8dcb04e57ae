/** The `Office` global of the stand-in: the add-in waits for `onReady` and checks that the host is Excel. */

const HostType = { Excel: "Excel" } as const;

/** What `Office.onReady` resolves with (and passes to its callback). */
export class StandInReadyInfo {
  static readonly officeName = "Office.onReady()";

  get host(): string {
    return HostType.Excel;
  }
}

export const officeNamespace = {
  /** Ready once the page has loaded, as Office.js is once its host answers. */
  async onReady(callback?: (info: StandInReadyInfo) => unknown): Promise<StandInReadyInfo> {
    if (document.readyState === "loading") {
      await new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
    }
    const info = new StandInReadyInfo();
    callback?.(info);
    return info;
  },
  HostType,
};
