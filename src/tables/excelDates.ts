/**
 * Excel stores dates as serial numbers: days since 1899-12-30 (the epoch that absorbs Excel's 1900 leap-year
 * bug for every date after February 1900), with the time of day as the fraction. Writing serials instead of
 * ISO strings lets Excel sort, filter and format the column as dates, independent of the user's locale.
 */

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const MS_PER_DAY = 86_400_000;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** "2026-03-01" -> 46082. A calendar date has no time zone, so it is read as that day, not as UTC midnight. */
export function isoDateToSerial(iso: string): number | undefined {
  const match = ISO_DATE.exec(iso);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return (ms - EXCEL_EPOCH_MS) / MS_PER_DAY;
}

/**
 * "2026-03-01T12:00:00Z" -> 46082.5. Timestamps are shown in UTC: a workbook is shared across time zones and
 * Excel has no zone-aware date type, so one fixed zone is the only value that means the same to everyone.
 */
export function isoTimestampToSerial(iso: string): number | undefined {
  if (!ISO_TIMESTAMP.test(iso)) return undefined;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(iso);
  const ms = Date.parse(hasZone ? iso : `${iso.replace(" ", "T")}Z`);
  if (Number.isNaN(ms)) return undefined;
  return (ms - EXCEL_EPOCH_MS) / MS_PER_DAY;
}

/** Either form; undefined when the text is not an ISO date or timestamp (the caller keeps the text). */
export function isoToSerial(iso: string): number | undefined {
  return isoDateToSerial(iso) ?? isoTimestampToSerial(iso);
}
