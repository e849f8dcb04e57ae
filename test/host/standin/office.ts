/**
 * The `Office` global of the stand-in: the add-in waits for `onReady`, checks that the host is Excel, and asks
 * which requirement sets the host supports, and reads the Office theme.
 */

const HostType = { Excel: "Excel" } as const;

/** What `Office.onReady` resolves with (and passes to its callback). */
export class StandInReadyInfo {
  static readonly officeName = "Office.onReady()";

  get host(): string {
    return HostType.Excel;
  }
}

/** The newest ExcelApi set whose part the add-in uses the stand-in plays: 1.16, data types in custom functions. */
const EXCEL_API_MINOR = 16;

/** Compares "1.16" with the stand-in's set numerically, as Office does (1.9 is older than 1.16). */
export class StandInRequirementSetSupport {
  static readonly officeName = "Office.RequirementSetSupport";

  isSetSupported(name: string, minVersion?: string | number): boolean {
    if (name.toLowerCase() !== "excelapi") return false;
    const [major = "1", minor = "0"] = String(minVersion ?? "1.1").split(".");
    return Number(major) < 1 || (Number(major) === 1 && Number(minor) <= EXCEL_API_MINOR);
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

/** `Office.context`: what the add-in reads of its host beyond the workbook. */
export class StandInContext {
  static readonly officeName = "Office.Context";
  readonly #requirements = new StandInRequirementSetSupport();

  get requirements(): StandInRequirementSetSupport {
    return this.#requirements;
  }

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
