import { isoDateToSerial } from "../../src/tables/excelDates";

const monthNumber = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;

/** The last day of an ISO date's month, as an Excel date. */
function lastDaySerial(iso: string): number {
  const [year, month] = [Number(iso.slice(0, 4)), Number(iso.slice(5, 7))];
  return isoDateToSerial(new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10)) as number;
}

/**
 * What a forecast row of `bucketMonths` months starting on `bucketStart` covers, read from the dates of the
 * service's monthly answer for the same window: [first day of its first month, last day of its last month (Excel
 * dates), how many months]. Tests derive the add-in's covers_from, covers_to and months_covered from it.
 */
export function monthsCovered(
  monthDates: readonly string[],
  bucketStart: string,
  bucketMonths: number,
): number[] {
  const start = monthNumber(bucketStart);
  const inBucket = monthDates.filter((date) => {
    const offset = monthNumber(date) - start;
    return offset >= 0 && offset < bucketMonths;
  });
  const [first] = inBucket;
  const last = inBucket.at(-1);
  if (first === undefined || last === undefined)
    throw new Error(`No month of the answer is in ${bucketStart}`);
  return [isoDateToSerial(first) as number, lastDaySerial(last), inBucket.length];
}
