/**
 * An entity card's as-of: beside the record's own date of its data (`collected_at`), when its answer was fetched
 * from the service, as local date and time to the minute (`=A1.fetched_at`).
 */
export const FETCHED_AT_PROPERTY = "fetched_at";

const pad = (value: number) => String(value).padStart(2, "0");

function localMinute(atMs: number): string {
  const at = new Date(atMs);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

export function withFetchedAt(card: Excel.EntityCellValue, storedAt: number): Excel.EntityCellValue {
  return {
    ...card,
    properties: {
      ...card.properties,
      [FETCHED_AT_PROPERTY]: { type: "String", basicValue: localMinute(storedAt) },
    },
  };
}
