import { asLiteralText } from "../tables/literalText";

/**
 * A cell as Excel 2021 and older can show it. Those builds have no data types in cells (ExcelApi 1.16): an
 * entity card written with `valuesAsJson` opens there as `#VALUE!` and a number that carries its own format (a
 * rent, a date) as a bare number, a date as its serial. The plain form is the value the cell shows (an entity's
 * text) and the number format it showed in, set on the cell itself, which every Excel reads.
 */
export interface PlainCell {
  readonly value: unknown;
  /** The cell's number format; null leaves the cell's own (Range.numberFormat takes null as "unchanged"). */
  readonly format: string | null;
}

export function plainCell(json: unknown): PlainCell {
  if (typeof json !== "object" || json === null) return { value: json ?? "", format: null };
  const { type, basicValue, text, numberFormat } = json as {
    type?: unknown;
    basicValue?: unknown;
    text?: unknown;
    numberFormat?: unknown;
  };
  const format = typeof numberFormat === "string" ? numberFormat : null;
  if (type === "Entity" && typeof text === "string") return { value: asLiteralText(text), format: null };
  if (typeof basicValue === "string") return { value: asLiteralText(basicValue), format };
  return { value: basicValue ?? "", format };
}
