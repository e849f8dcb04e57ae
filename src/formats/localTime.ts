/** Times as the pane and cells show them: the person's local clock, to the minute. */

const pad = (value: number) => String(value).padStart(2, "0");

/** A local date and time to the minute ("2026-11-27 13:05"): for text that stays in the workbook. */
export function dateTime(atMs: number): string {
  const at = new Date(atMs);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A local time to the minute it fell in ("13:05"), with its date when that is not today's. */
export function minuteTime(atMs: number, nowMs: number): string {
  const at = new Date(atMs);
  const now = new Date(nowMs);
  const sameDay =
    at.getFullYear() === now.getFullYear() &&
    at.getMonth() === now.getMonth() &&
    at.getDate() === now.getDate();
  return sameDay ? `${pad(at.getHours())}:${pad(at.getMinutes())}` : dateTime(atMs);
}

/**
 * A local clock time rounded up to the minute, so that trying again at the time shown is never too early;
 * with its date when it is not today (a Retry-After of a day).
 */
export function clockTime(atMs: number, nowMs: number): string {
  return minuteTime(Math.ceil(atMs / 60_000) * 60_000, nowMs);
}
