/**
 * The Excel hosts the manifest admits, as the stand-in plays them: one profile per host, each behaviour taken
 * from Microsoft's documentation or the office-js issue tracker (docs/hosts.md has the table with a source for
 * every cell). A profile is plain data, so the stand-in (in the add-in's frame), the host page (Excel's
 * calculation) and unit tests read the same answers.
 */

export type HostProfileName =
  "web" | "m365-windows" | "m365-mac" | "office2024-windows" | "retail2024-windows" | "office2021-windows";

/** What Excel does with each `application.calculate` type (Excel.CalculationType, ExcelApi 1.1). */
export type CalculationType = "Recalculate" | "Full" | "FullRebuild";

export interface HostProfile {
  readonly name: HostProfileName;
  readonly label: string;
  /** The highest version of each requirement set the host reports; a set not named is not supported. */
  readonly requirementSets: Readonly<Record<string, string>>;
  /** What a custom function receives for an empty cell it refers to. */
  readonly emptyCellArgument: null | 0 | "";
  /** `window.open` from the task pane opens a window (Office asks add-ins to use openBrowserWindow instead). */
  readonly windowOpen: boolean;
  /** A download started by `<a download href="blob:...">` saves a file. */
  readonly blobDownload: boolean;
  /** Non-volatile custom functions run when a saved workbook opens. */
  readonly recalculatesOnOpen: boolean;
  /** `Office.context.partitionKey`: defined where the host partitions browser storage. */
  readonly partitionKey: string | undefined;
  /** A non-extractable CryptoKey can be stored in IndexedDB (WebKit refuses to clone one). */
  readonly storesCryptoKeys: boolean;
}

/** Every calculation type re-runs non-volatile custom functions only when it marks every cell dirty. */
export const CALCULATION_RERUNS_ALL: Readonly<Record<CalculationType, boolean>> = {
  Recalculate: false,
  Full: true,
  FullRebuild: true,
};

export const HOST_PROFILES: Readonly<Record<HostProfileName, HostProfile>> = {
  web: {
    name: "web",
    label: "Excel on the web",
    requirementSets: {
      ExcelApi: "1.20",
      CustomFunctionsRuntime: "1.5",
      SharedRuntime: "1.2",
    },
    emptyCellArgument: null,
    windowOpen: true,
    blobDownload: true,
    recalculatesOnOpen: true,
    partitionKey: "https://excel.cloud.microsoft|rent-market",
    storesCryptoKeys: true,
  },
  "m365-windows": {
    name: "m365-windows",
    label: "Microsoft 365 on Windows (WebView2)",
    requirementSets: {
      ExcelApi: "1.20",
      CustomFunctionsRuntime: "1.5",
      SharedRuntime: "1.2",
      OpenBrowserWindowApi: "1.1",
    },
    emptyCellArgument: 0,
    windowOpen: false,
    blobDownload: false,
    recalculatesOnOpen: false,
    partitionKey: undefined,
    storesCryptoKeys: true,
  },
  "m365-mac": {
    name: "m365-mac",
    label: "Microsoft 365 on Mac (WKWebView)",
    requirementSets: {
      ExcelApi: "1.20",
      CustomFunctionsRuntime: "1.5",
      SharedRuntime: "1.2",
      OpenBrowserWindowApi: "1.1",
    },
    emptyCellArgument: 0,
    windowOpen: false,
    blobDownload: false,
    recalculatesOnOpen: false,
    partitionKey: undefined,
    storesCryptoKeys: false,
  },
  "office2024-windows": {
    name: "office2024-windows",
    label: "Office 2024 / LTSC on Windows (WebView2)",
    requirementSets: {
      ExcelApi: "1.17",
      CustomFunctionsRuntime: "1.3",
      SharedRuntime: "1.2",
      OpenBrowserWindowApi: "1.1",
    },
    emptyCellArgument: 0,
    windowOpen: false,
    blobDownload: false,
    recalculatesOnOpen: false,
    partitionKey: undefined,
    storesCryptoKeys: true,
  },
  "retail2024-windows": {
    name: "retail2024-windows",
    label: "Office 2024 retail perpetual on Windows (WebView2)",
    // Retail perpetual builds take Excel's sets by version, as Microsoft 365 does, but no custom function set
    // past 1.3 (1.4 and 1.5 "Not supported"; 1.1 to 1.3 from Version 2311): a current one reads data types in
    // cells while its functions cannot return them, and previews no formula values.
    requirementSets: {
      ExcelApi: "1.20",
      CustomFunctionsRuntime: "1.3",
      SharedRuntime: "1.2",
      OpenBrowserWindowApi: "1.1",
    },
    emptyCellArgument: 0,
    windowOpen: false,
    blobDownload: false,
    recalculatesOnOpen: false,
    partitionKey: undefined,
    storesCryptoKeys: true,
  },
  "office2021-windows": {
    name: "office2021-windows",
    label: "Office 2021 / LTSC 2021 on Windows (WebView2)",
    // Office 2021: Version 2108 in each table: ExcelApi 1.14 (no valuesAsJson, no data types in cells).
    requirementSets: {
      ExcelApi: "1.14",
      CustomFunctionsRuntime: "1.3",
      SharedRuntime: "1.1",
      OpenBrowserWindowApi: "1.1",
    },
    emptyCellArgument: 0,
    windowOpen: false,
    blobDownload: false,
    recalculatesOnOpen: false,
    partitionKey: undefined,
    storesCryptoKeys: true,
  },
};

export const PROFILE_NAMES = Object.keys(HOST_PROFILES) as HostProfileName[];

/** The profile the preview plays when none is named: the host the add-in was first written against. */
export const DEFAULT_PROFILE: HostProfileName = "m365-windows";

export function hostProfile(name: string | null | undefined): HostProfile {
  if (!name) return HOST_PROFILES[DEFAULT_PROFILE];
  const found = HOST_PROFILES[name as HostProfileName];
  if (!found) throw new Error(`No host profile "${name}" (there are ${PROFILE_NAMES.join(", ")}).`);
  return found;
}

function versionParts(version: string | number | undefined): [number, number] {
  const [major = "1", minor = "0"] = String(version ?? "1.1").split(".");
  return [Number(major), Number(minor)];
}

/** `isSetSupported` as Office answers it: names without regard to case, versions compared numerically (1.9 < 1.16). */
export function supportsSet(profile: HostProfile, name: string, minVersion?: string | number): boolean {
  const entry = Object.entries(profile.requirementSets).find(
    ([set]) => set.toLowerCase() === name.toLowerCase(),
  );
  if (!entry) return false;
  const [hasMajor, hasMinor] = versionParts(entry[1]);
  const [wantMajor, wantMinor] = versionParts(minVersion);
  return hasMajor > wantMajor || (hasMajor === wantMajor && hasMinor >= wantMinor);
}

/**
 * Excel on the web refuses a request or a response of Office.js over 5 MB (RequestPayloadSizeLimitExceeded,
 * ResponsePayloadSizeLimitExceeded: "This error only occurs in Excel on the web", Excel's error codes).
 */
export const limitsSyncPayload = (profile: HostProfile): boolean => profile.name === "web";

/** Custom functions may return data types (formatted numbers, entities) from CustomFunctionsRuntime 1.4. */
export const holdsDataTypes = (profile: HostProfile): boolean =>
  supportsSet(profile, "CustomFunctionsRuntime", "1.4");

/**
 * Excel previews formula values, calling custom functions for the part of a formula a person selects while
 * editing it, where `invocation.isInValuePreview` tells them so: CustomFunctionsRuntime 1.5 (Excel on the web,
 * Windows 2504+, Mac 16.96+; not the perpetual builds).
 */
export const previewsFormulaValues = (profile: HostProfile): boolean =>
  supportsSet(profile, "CustomFunctionsRuntime", "1.5");
