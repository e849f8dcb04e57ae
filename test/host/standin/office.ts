/**
 * The `Office` global of the stand-in: the add-in waits for `onReady`, checks that the host is Excel, asks
 * which requirement sets the host supports, reads the Office theme and the storage partition key, and opens
 * links in the person's browser. What the host reports comes from its profile (test/host/profiles.ts).
 */
import { supportsSet, type HostProfile } from "../profiles";
import { DEFAULT_BROWSER_GLOBAL, type HostBridge } from "./hostBridge";

const HostType = { Excel: "Excel" } as const;

/** What `Office.onReady` resolves with (and passes to its callback). */
export class StandInReadyInfo {
  static readonly officeName = "Office.onReady()";

  get host(): string {
    return HostType.Excel;
  }
}

/** The requirement sets of the host's profile, compared as Office does (1.9 is older than 1.16). */
export class StandInRequirementSetSupport {
  static readonly officeName = "Office.RequirementSetSupport";
  readonly #profile: HostProfile;

  constructor(profile: HostProfile) {
    this.#profile = profile;
  }

  isSetSupported(name: string, minVersion?: string | number): boolean {
    return supportsSet(this.#profile, name, minVersion);
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

type DefaultBrowserProgram = (url: string) => Promise<void>;

/**
 * Opens the person's default browser at `url`, as openBrowserWindow does: a separate program, given the
 * address and nothing else of the pane (no Authorization header, cookie or storage). The end-to-end tests give
 * the page one (test/e2e/support/defaultBrowser.ts); in the preview a new tab that knows nothing of the pane's
 * page (noopener, noreferrer) stands for it.
 */
function openDefaultBrowser(url: string): void {
  const program = (window as unknown as Partial<Record<string, DefaultBrowserProgram>>)[
    DEFAULT_BROWSER_GLOBAL
  ];
  if (program) void program(url);
  else window.parent.open(url, "_blank", "noopener,noreferrer");
}

/** `Office.context.ui`: the add-in uses only `openBrowserWindow` (OpenBrowserWindowApi 1.1, desktop only). */
export class StandInUI {
  static readonly officeName = "Office.UI";
  readonly #host: HostBridge;

  constructor(host: HostBridge) {
    this.#host = host;
  }

  openBrowserWindow(url: string): void {
    if (!supportsSet(this.#host.profile, "OpenBrowserWindowApi", "1.1")) {
      throw new Error(`${this.#host.profile.label} does not support openBrowserWindow.`);
    }
    this.#host.outside.browserWindows.push(url);
    openDefaultBrowser(url);
  }
}

/** `Office.context`: what the add-in reads of its host beyond the workbook. */
export class StandInContext {
  static readonly officeName = "Office.Context";
  readonly #host: HostBridge;
  readonly #requirements: StandInRequirementSetSupport;
  readonly #ui: StandInUI;

  constructor(host: HostBridge) {
    this.#host = host;
    this.#requirements = new StandInRequirementSetSupport(host.profile);
    this.#ui = new StandInUI(host);
  }

  get requirements(): StandInRequirementSetSupport {
    return this.#requirements;
  }

  get officeTheme(): StandInOfficeTheme {
    return new StandInOfficeTheme();
  }

  get ui(): StandInUI {
    return this.#ui;
  }

  /** Defined where the host partitions browser storage (Excel on the web); undefined in Windows' web views. */
  get partitionKey(): string | undefined {
    return this.#host.profile.partitionKey;
  }
}

export function officeNamespace(host: HostBridge) {
  return {
    context: new StandInContext(host),
    /** Ready once the page has loaded, as Office.js is once its host answers. */
    async onReady(callback?: (info: StandInReadyInfo) => unknown): Promise<StandInReadyInfo> {
      if (document.readyState === "loading") {
        await new Promise((resolve) =>
          document.addEventListener("DOMContentLoaded", resolve, { once: true }),
        );
      }
      const info = new StandInReadyInfo();
      callback?.(info);
      return info;
    },
    HostType,
  };
}
