/**
 * What the workbook remembers of the add-in's work, in the workbook's own settings (Excel.SettingCollection,
 * ExcelApi 1.4: per file and per add-in, saved with the file, so a reload or another computer reads it back).
 * Settings are not for secrets (Microsoft's docs say so): only times and counts go here.
 */
const LAST_REFRESH_KEY = "rentMarket.lastRefresh";

export interface LastRefresh {
  /** Epoch ms when the refresh ended. */
  readonly at: number;
  /** Formulas it recalculated. */
  readonly formulas: number;
  /** What it made of their answers (fresh, already current, held, failed); absent in what older versions saved. */
  readonly counts?: Readonly<Record<"fresh" | "current" | "held" | "failed", number>>;
}

const isCounts = (value: unknown): boolean =>
  typeof value === "object" &&
  value !== null &&
  ["fresh", "current", "held", "failed"].every((outcome) =>
    Number.isInteger((value as Record<string, unknown>)[outcome]),
  );

function isLastRefresh(value: unknown): value is LastRefresh {
  if (typeof value !== "object" || value === null) return false;
  const { at, formulas, counts } = value as Partial<LastRefresh>;
  return Number.isFinite(at) && Number.isInteger(formulas) && (counts === undefined || isCounts(counts));
}

export async function rememberLastRefresh(
  context: Excel.RequestContext,
  refresh: LastRefresh,
): Promise<void> {
  context.workbook.settings.add(
    LAST_REFRESH_KEY,
    JSON.stringify({ at: refresh.at, formulas: refresh.formulas, counts: refresh.counts }),
  );
  await context.sync();
}

/** The last refresh the workbook remembers; undefined when it never had one (or the setting was mangled). */
export async function readLastRefresh(context: Excel.RequestContext): Promise<LastRefresh | undefined> {
  const setting = context.workbook.settings.getItemOrNullObject(LAST_REFRESH_KEY);
  setting.load("value");
  await context.sync();
  if (setting.isNullObject || typeof setting.value !== "string") return undefined;
  try {
    const value: unknown = JSON.parse(setting.value);
    return isLastRefresh(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const WORKBOOK_ID_KEY = "rentMarket.workbookId";

/** This workbook's identity (below) if it has one; reads only, so a workbook just opened stays unchanged. */
export async function readWorkbookIdentity(context: Excel.RequestContext): Promise<string | undefined> {
  const setting = context.workbook.settings.getItemOrNullObject(WORKBOOK_ID_KEY);
  setting.load("value");
  await context.sync();
  if (!setting.isNullObject && typeof setting.value === "string" && setting.value !== "")
    return setting.value;
  return undefined;
}

/**
 * This workbook's identity: a random id kept in its settings, made the first time it is asked for. It names
 * the workbook's cells in what the add-in keeps outside it (their as-of), and says nothing of the file or its
 * owner. A copy of the file carries the same id (the copy's cells are the same formulas). Making it changes the
 * file (Excel then asks to save it, and a read-only file refuses it): only a person's act asks for it.
 */
export async function workbookIdentity(context: Excel.RequestContext): Promise<string> {
  const kept = await readWorkbookIdentity(context);
  if (kept !== undefined) return kept;
  const id = [...globalThis.crypto.getRandomValues(new Uint8Array(16))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
  context.workbook.settings.add(WORKBOOK_ID_KEY, id);
  await context.sync();
  return id;
}
