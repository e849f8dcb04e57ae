/** The `Office` global of the stand-in: the add-in waits for `onReady` and checks that the host is Excel. */

const HostType = { Excel: "Excel" } as const;

/** What `Office.onReady` resolves with (and passes to its callback). */
export class StandInReadyInfo {
  static readonly officeName = "Office.onReady()";

  get host(): string {
    return HostType.Excel;
  }
}

/**
 * The Office theme as Excel on Windows and Mac report it: the preview follows the browser's light or dark
 * setting, so a test switches it with the colour scheme it emulates.
 */
export class StandInOfficeTheme {
  static readonly officeName = "Office.OfficeTheme";

  get bodyBackgroundColor(): string {
    return window.matchMedia("(prefers-color-scheme: dark)").matches ? "#1F1F1F" : "#FFFFFF";
  }
}

/** `Office.context`: what the pane reads of its host beyond the workbook. */
export class StandInContext {
  static readonly officeName = "Office.Context";

  get officeTheme(): StandInOfficeTheme {
    return new StandInOfficeTheme();
  }
}

export const officeNamespace = {
  context: new StandInContext(),
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
