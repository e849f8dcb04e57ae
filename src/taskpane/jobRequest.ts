import { MAX_JOB_PROPERTY_IDS } from "../api/contractLimits";
import type { CreateJobBody } from "../data/dataLayer";
import { PaneInputError } from "./paneInputError";

export type ReportType = NonNullable<CreateJobBody["report_type"]>;
export type OutputFormat = NonNullable<CreateJobBody["output_format"]>;

/** The contract's limit on property ids per job. */
export { MAX_JOB_PROPERTY_IDS };

/** The bulk export form as typed. */
export interface JobForm {
  reportType: ReportType;
  outputFormat: OutputFormat;
  startDate: string;
  endDate: string;
  /** Ids separated by commas, semicolons, spaces or new lines, and names or addresses one a line. */
  propertyIds: string;
  callbackUrl: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkDate(label: string, value: string): string {
  const text = value.trim();
  const valid = ISO_DATE.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));
  if (!valid || new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) !== text)
    throw new PaneInputError(`${label} must be a date like 2026-01-31.`);
  return text;
}

/**
 * What the properties box holds: ids separated by commas, spaces, semicolons or new lines, and properties by
 * name or street address, one a line (or between semicolons), written as a formula takes them ("Mill Creek,
 * Austin", "1200 Elm St, Austin, TX"). A line with a letter is a property; any other must hold only ids.
 */
export function readPropertyEntries(text: string): (number | string)[] {
  const lines = text
    .split(/[\n;]+/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const entries = lines.flatMap((line): (number | string)[] => {
    if (/[A-Za-z]/.test(line)) return [line];
    return line
      .split(/[\s,]+/)
      .filter((token) => token !== "")
      .map((token) => {
        if (!/^\d+$/.test(token) || Number(token) < 1)
          throw new PaneInputError(
            `"${token}" is not a property id: enter whole numbers such as 100001, or names.`,
          );
        return Number(token);
      });
  });
  return [...new Set(entries)];
}

/**
 * Property ids from selected cells, row by row. Empty cells are skipped, and so is a text header in the first
 * row (people select a column with its title); any other value that is not a whole number is an error.
 */
export function propertyIdsFromCells(values: readonly (readonly unknown[])[]): number[] {
  const ids: number[] = [];
  values.forEach((row, rowIndex) =>
    row.forEach((value) => {
      const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
      if (text === "") return;
      if (/^\d+$/.test(text) && Number(text) >= 1) {
        ids.push(Number(text));
        return;
      }
      if (rowIndex === 0 && typeof value === "string") return;
      throw new PaneInputError(`The selection holds "${text}", which is not a property id.`);
    }),
  );
  return [...new Set(ids)];
}

/**
 * The form checked and turned into the job request; each problem named so the person can fix it. Properties
 * given by name or address are resolved by `resolveName` once the rest of the form is right (each a lookup).
 */
export async function jobRequestOf(
  form: JobForm,
  resolveName: (name: string) => Promise<number>,
): Promise<CreateJobBody> {
  const start = checkDate("Start date", form.startDate);
  const end = checkDate("End date", form.endDate);
  if (start > end) throw new PaneInputError("The start date must not be after the end date.");
  const callback = form.callbackUrl.trim();
  if (callback !== "" && !/^https?:\/\/[^\s]+$/.test(callback))
    throw new PaneInputError("The callback URL must start with https:// (or leave it empty).");
  const entries = readPropertyEntries(form.propertyIds);
  if (entries.length === 0)
    throw new PaneInputError(
      "Enter property ids or names, or select cells holding ids and choose Use selection.",
    );
  if (entries.length > MAX_JOB_PROPERTY_IDS)
    throw new PaneInputError(
      `A job takes at most ${MAX_JOB_PROPERTY_IDS} properties; ${entries.length} were given. Split them over several jobs.`,
    );
  const ids = await Promise.all(
    entries.map((entry) => (typeof entry === "number" ? entry : resolveName(entry))),
  );
  return {
    report_type: form.reportType,
    output_format: form.outputFormat,
    start_date: start,
    end_date: end,
    property_ids: [...new Set(ids)],
    ...(callback === "" ? {} : { callback_url: callback }),
  };
}
