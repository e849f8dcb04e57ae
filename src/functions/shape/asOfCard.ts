/**
 * An entity card's as-of: beside the record's own date of its data (`collected_at`), when its answer was fetched
 * from the service, as local date and time to the minute (`=A1.fetched_at`). Added to the record before it
 * becomes a card, so the card is built as every other.
 */
export const FETCHED_AT_FIELD = "fetched_at";

const pad = (value: number) => String(value).padStart(2, "0");

function localMinute(atMs: number): string {
  const at = new Date(atMs);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

export function withFetchedAt(
  record: Readonly<Record<string, unknown>>,
  storedAt: number,
): Record<string, unknown> {
  return { ...record, [FETCHED_AT_FIELD]: localMinute(storedAt) };
}
