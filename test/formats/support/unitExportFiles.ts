/**
 * Unit export files as the sandbox writes them: the columns and types of `ExportUnitRow` in
 * src/api/openapi.yaml (csv with a header row and empty cells for null, one JSON object per jsonl line,
 * parquet with strings, doubles and int32), produced with the same libraries (papaparse, hyparquet-writer).
 */
import Papa from "papaparse";
import { parquetWriteBuffer, type BasicType } from "hyparquet-writer";

export const UNIT_EXPORT_COLUMNS: readonly { name: string; type: BasicType }[] = [
  { name: "date", type: "STRING" },
  { name: "property_id", type: "INT32" },
  { name: "property_name", type: "STRING" },
  { name: "unit_id", type: "STRING" },
  { name: "unit_name", type: "STRING" },
  { name: "floorplan_name", type: "STRING" },
  { name: "bedroom_count", type: "INT32" },
  { name: "bathroom_count", type: "DOUBLE" },
  { name: "sq_ft", type: "DOUBLE" },
  { name: "status", type: "STRING" },
  { name: "date_available", type: "STRING" },
  { name: "days_on_market", type: "INT32" },
  { name: "asking_rent", type: "DOUBLE" },
  { name: "asking_rent_psf", type: "DOUBLE" },
  { name: "net_effective_rent", type: "DOUBLE" },
  { name: "net_effective_rent_psf", type: "DOUBLE" },
  { name: "all_in_rent", type: "DOUBLE" },
  { name: "all_in_rent_psf", type: "DOUBLE" },
  { name: "all_in_ner", type: "DOUBLE" },
  { name: "all_in_ner_psf", type: "DOUBLE" },
  { name: "concession_text", type: "STRING" },
];

export type UnitExportRow = Record<string, string | number | null>;

function isoDay(offset: number): string {
  return new Date(Date.UTC(2026, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
}

/** Deterministic rows with the awkward cases: leading-zero unit names, nulls, commas, quotes and non-ASCII. */
export function unitExportRows(count: number): UnitExportRow[] {
  return Array.from({ length: count }, (_, i) => {
    const propertyId = 1000 + (i % 250);
    const rent = 1200 + (i % 900) + 0.5;
    const sqFt = 550 + (i % 600);
    const hasConcession = i % 4 === 0;
    return {
      date: isoDay(i % 30),
      property_id: propertyId,
      property_name: i % 50 === 0 ? `Résidences "Le Parc", Tower ${i % 7}` : `Property ${propertyId}`,
      unit_id: `${propertyId}_${String(i).padStart(6, "0")}`,
      unit_name: String(i % 1000).padStart(4, "0"),
      floorplan_name: `Plan ${"ABC"[i % 3]}${i % 4}`,
      bedroom_count: i % 4,
      bathroom_count: 1 + (i % 3) * 0.5,
      sq_ft: sqFt,
      status: "available",
      date_available: i % 5 === 0 ? null : isoDay(30 + (i % 60)),
      days_on_market: i % 7 === 0 ? null : i % 120,
      asking_rent: rent,
      asking_rent_psf: Math.round((rent / sqFt) * 10_000) / 10_000,
      net_effective_rent: rent - 50,
      net_effective_rent_psf: Math.round(((rent - 50) / sqFt) * 10_000) / 10_000,
      all_in_rent: i % 9 === 0 ? null : rent + 75,
      all_in_rent_psf: i % 9 === 0 ? null : Math.round(((rent + 75) / sqFt) * 10_000) / 10_000,
      all_in_ner: i % 9 === 0 ? null : rent + 25,
      all_in_ner_psf: i % 9 === 0 ? null : Math.round(((rent + 25) / sqFt) * 10_000) / 10_000,
      concession_text: hasConcession ? "Up to 6 weeks free, on select units" : null,
    };
  });
}

export function unitExportCsv(rows: readonly UnitExportRow[]): string {
  return Papa.unparse(
    {
      fields: UNIT_EXPORT_COLUMNS.map((c) => c.name),
      data: rows.map((row) => UNIT_EXPORT_COLUMNS.map((c) => row[c.name] ?? "")),
    },
    { newline: "\n" },
  );
}

export function unitExportJsonl(rows: readonly UnitExportRow[]): string {
  return rows.map((row) => JSON.stringify(row)).join("\n") + "\n";
}

export function unitExportParquet(rows: readonly UnitExportRow[]): ArrayBuffer {
  return parquetWriteBuffer({
    columnData: UNIT_EXPORT_COLUMNS.map(({ name, type }) => ({
      name,
      type,
      data: rows.map((row) => row[name] ?? null),
    })),
  });
}
