import type { AnswerTrail, TrailLine } from "../data/answerTrail";

/** What a formula's last calculation rested on: the pane shows it for the selected cell. */
export interface CellAsOf {
  /** Epoch ms when the cell's call ended. */
  calculatedAt: number;
  lines: TrailLine[];
}

/** Cells remembered at most; past it the longest unchanged are forgotten (the pane then says it does not know). */
const MAX_REMEMBERED_CELLS = 200_000;

const byCell = new Map<string, CellAsOf>();

type CellAsOfListener = (sheetName: string, a1: string) => void;
const listeners = new Set<CellAsOfListener>();

/** Told the sheet and cell of each call that ends (the pane updates the cell it shows). */
export function onCellAsOf(listener: CellAsOfListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** One spelling for a cell: Excel may quote a sheet name ('My sheet'!A1) and writes no `$` in a call's address. */
function cellKey(sheetName: string, a1: string): string {
  return `${sheetName.toUpperCase()}!${a1.replace(/\$/g, "").toUpperCase()}`;
}

/** "Sheet1!B2" or "'My ''Q3'' sheet'!B2" as sheet name and cell. */
export function splitAddress(address: string): { sheetName: string; a1: string } | undefined {
  const bang = address.lastIndexOf("!");
  if (bang <= 0) return undefined;
  const sheet = address.slice(0, bang);
  const quoted = sheet.startsWith("'") && sheet.endsWith("'") && sheet.length >= 2;
  return {
    sheetName: quoted ? sheet.slice(1, -1).replace(/''/g, "'") : sheet,
    a1: address.slice(bang + 1),
  };
}

/** Called as a cell's call ends with the address Excel gave it (functions tagged @requiresAddress). */
export function rememberCellAsOf(address: string, trail: AnswerTrail, calculatedAt: number): void {
  const parts = splitAddress(address);
  if (!parts) return;
  const key = cellKey(parts.sheetName, parts.a1);
  byCell.delete(key);
  if (byCell.size >= MAX_REMEMBERED_CELLS) {
    const oldest = byCell.keys().next();
    if (!oldest.done) byCell.delete(oldest.value);
  }
  byCell.set(key, { calculatedAt, lines: trail.lines() });
  for (const listener of listeners) listener(parts.sheetName, parts.a1);
}

/** The as-of of the formula in a cell (the anchor of a spill), if it was calculated since the runtime started. */
export function cellAsOf(sheetName: string, a1: string): CellAsOf | undefined {
  return byCell.get(cellKey(sheetName, a1));
}
