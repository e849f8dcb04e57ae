import { FIELD_CATALOGUE, type FieldUnit } from "../../api/fieldCatalogue";
import { factsOf, labelOf } from "../../api/fieldFacts";

/**
 * What a block's header cell names: the field's id, whether the block was headed by ids or by readable names
 * ("names" headers), so a chart reads the same block either way.
 */
let idsByLabel: Map<string, string> | undefined;

function idOfLabel(label: string): string | undefined {
  if (!idsByLabel) {
    idsByLabel = new Map();
    for (const record of Object.values(FIELD_CATALOGUE) as Record<string, { label: string }>[])
      for (const [id, facts] of Object.entries(record))
        if (!idsByLabel.has(facts.label.toLowerCase())) idsByLabel.set(facts.label.toLowerCase(), id);
  }
  return idsByLabel.get(label.toLowerCase());
}

/** A column of a block, as the chart reads it. */
export interface BlockColumn {
  /** Zero-based, within the block. */
  readonly index: number;
  /** The field's id ("avg_rent"); the header itself when it names no field the contract has. */
  readonly field: string;
  /** The header as the block shows it (the person's words). */
  readonly header: string;
  /** Forecast rent in dollars made from rent growth (RENT.FORECAST's useRentValue): "forecast rent (<field>)". */
  readonly asRent: boolean;
}

const FORECAST_RENT = /^forecast rent \((.+)\)$/i;

export function blockColumns(headerRow: readonly unknown[]): BlockColumn[] {
  return headerRow.map((cell, index) => {
    const header = String(cell ?? "").trim();
    const rent = FORECAST_RENT.exec(header);
    // A history's date header may say which days the service returned: "date (2026-08-27 to ...)".
    const bare = rent?.[1] ?? header.replace(/^date \(.*\)$/i, "date");
    const field = factsOf(bare) ? bare : (idOfLabel(bare) ?? bare);
    const forecastRent = rent !== null || /^forecast rent\b/i.test(header);
    return { index, field: field.toLowerCase() === "date" ? "date" : field, header, asRent: forecastRent };
  });
}

const UNIT_WORDS: Partial<Record<FieldUnit, string>> = {
  currency: "$",
  percent: "%",
  sq_ft: "sq ft",
  days: "days",
  miles: "miles",
  acres: "acres",
  count: "count",
};

/** The unit a column's figures are in. */
export function unitOf(column: BlockColumn): FieldUnit | undefined {
  return column.asRent ? "currency" : factsOf(column.field)?.unit;
}

/** A column's name for a chart's axis or legend, with its unit: "Avg rent ($)", "Occupancy % (%)" stays "Occupancy %". */
export function axisTitleOf(column: BlockColumn): string {
  const label = column.asRent ? column.header : labelOf(column.field);
  const unit = unitOf(column);
  const words = unit === undefined ? undefined : UNIT_WORDS[unit];
  if (words === undefined || label.toLowerCase().includes(words)) return label;
  return `${label} (${words})`;
}

/** How a chart's value axis shows a column's unit (Excel number formats). */
export function axisFormatOf(column: BlockColumn): string {
  switch (unitOf(column)) {
    case "currency":
      return "$#,##0";
    case "percent":
      return "0.0%";
    default:
      return "#,##0";
  }
}
