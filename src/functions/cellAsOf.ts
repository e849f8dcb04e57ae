import type { AnswerTrail, TrailLine } from "../data/answerTrail";
import { requestKey } from "../data/cacheKey";
import type { DataLayer } from "../data/dataLayer";
import { splitSheetAddress } from "../excel/a1";
import { session, type SignedIn } from "../session/session";

/** What a formula's last calculation rested on: the pane shows it for the selected cell. */
export interface CellAsOf {
  /** Epoch ms when the cell's call ended. */
  calculatedAt: number;
  lines: TrailLine[];
  /** Why the call has no answer, when it ended with an error (or a block with error cells): the first message. */
  error?: string;
}

/** Cells remembered at most; past it the longest unchanged are forgotten (the pane then says it does not know). */
const MAX_REMEMBERED_CELLS = 200_000;

const byCell = new Map<string, CellAsOf>();

/**
 * Kept beyond this runtime in the sign-in's cache (IndexedDB), under the workbook's identity and the cell: a
 * reloaded pane shows the as-of of cells calculated before, and a sign-out removes them with the person's
 * answers. Writes wait a moment so that a recalculation of many cells is one write; they also wait for the
 * workbook's identity (read by the pane), and are dropped past the same bound as memory.
 */
const WRITE_DELAY_MS = 200;

interface PendingWrite {
  data: DataLayer;
  owner: string;
  asOf: CellAsOf;
}

const pendingWrites = new Map<string, PendingWrite>();
let writeTimer: ReturnType<typeof setTimeout> | undefined;
let workbookId: string | undefined;
let writing: Promise<void> = Promise.resolve();

/** The key of a cell's as-of in the cache: whose it is, which workbook, which cell. */
function storedKey(owner: string, workbook: string, cell: string): string {
  return requestKey({
    kind: "cell_as_of",
    caller: owner,
    accountId: undefined,
    endpoint: "workbook",
    params: { workbook, cell },
  });
}

/** Writes what waits, once the workbook is known; a sign-in that has ended keeps nothing (its cache is closed). */
export function flushCellAsOf(): Promise<void> {
  clearTimeout(writeTimer);
  writeTimer = undefined;
  const workbook = workbookId;
  if (workbook === undefined || pendingWrites.size === 0) return writing;
  const byLayer = new Map<DataLayer, { key: string; value: CellAsOf }[]>();
  for (const [cell, { data, owner, asOf }] of pendingWrites) {
    const entries = byLayer.get(data) ?? [];
    entries.push({ key: storedKey(owner, workbook, cell), value: asOf });
    byLayer.set(data, entries);
  }
  pendingWrites.clear();
  const written = writing.then(async () => {
    // Best effort: an as-of that could not be kept leaves the pane saying it does not know, nothing worse.
    await Promise.all([...byLayer].map(([data, entries]) => data.cache.setMany(entries).catch(() => 0)));
  });
  writing = written;
  return written;
}

function keep(cell: string, signedIn: SignedIn | undefined, asOf: CellAsOf): void {
  if (!signedIn) return;
  pendingWrites.delete(cell);
  if (pendingWrites.size >= MAX_REMEMBERED_CELLS) {
    const oldest = pendingWrites.keys().next();
    if (!oldest.done) pendingWrites.delete(oldest.value);
  }
  pendingWrites.set(cell, { data: signedIn.data, owner: signedIn.owner, asOf });
  if (workbookId !== undefined && writeTimer === undefined)
    writeTimer = setTimeout(() => void flushCellAsOf(), WRITE_DELAY_MS);
}

/** The workbook's identity (src/excel/workbookMemory.ts), once the pane has read it: as-of kept from then on. */
export function useWorkbookIdentity(id: string): Promise<void> {
  workbookId = id;
  return flushCellAsOf();
}

// A sign-out removes the person's answers and what cells rested on with them: memory forgets it too.
session.onChange((state) => {
  if (state) return;
  byCell.clear();
  pendingWrites.clear();
});

/** For tests: forget what this runtime holds in memory, as a reload does (what was kept stays kept). */
export function forgetCellAsOfInMemory(): void {
  byCell.clear();
  pendingWrites.clear();
  workbookId = undefined;
}

type CellAsOfListener = (sheetName: string, a1: string) => void;
const listeners = new Set<CellAsOfListener>();

/** Told the sheet and cell of each call that ends (the pane updates the cell it shows). */
export function onCellAsOf(listener: CellAsOfListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** One spelling for a cell: Excel may quote a sheet name ('My sheet'!A1) and writes no `$` in a call's address. */
export function cellKey(sheetName: string, a1: string): string {
  return `${sheetName.toUpperCase()}!${a1.replace(/\$/g, "").toUpperCase()}`;
}

/** "Sheet1!B2", "'Q1'!B2" as sheet name and cell. */
function splitAddress(address: string): { sheetName: string; a1: string } | undefined {
  const parts = splitSheetAddress(address);
  return parts && { sheetName: parts.sheetName, a1: parts.cells };
}

/** One spelling for the cell at an address Excel gives a call ("Sheet1!B2", "'My sheet'!B2"). */
export function cellKeyOf(address: string): string {
  const parts = splitAddress(address);
  return parts ? cellKey(parts.sheetName, parts.a1) : address.toUpperCase();
}

/** Called as a cell's call ends with the address Excel gave it (functions tagged @requiresAddress). */
export function rememberCellAsOf(
  address: string,
  trail: AnswerTrail,
  calculatedAt: number,
  error?: string,
): void {
  const parts = splitAddress(address);
  if (!parts) return;
  const key = cellKey(parts.sheetName, parts.a1);
  byCell.delete(key);
  if (byCell.size >= MAX_REMEMBERED_CELLS) {
    const oldest = byCell.keys().next();
    if (!oldest.done) byCell.delete(oldest.value);
  }
  const asOf: CellAsOf = { calculatedAt, lines: trail.lines(), ...(error === undefined ? {} : { error }) };
  byCell.set(key, asOf);
  keep(key, session.current, asOf);
  for (const listener of listeners) listener(parts.sheetName, parts.a1);
}

/** The as-of of the formula in a cell (the anchor of a spill), if it was calculated since the runtime started. */
export function cellAsOf(sheetName: string, a1: string): CellAsOf | undefined {
  return byCell.get(cellKey(sheetName, a1));
}

/**
 * The as-of of the formula in a cell: from this runtime's memory, else as the sign-in's cache kept it for this
 * workbook (a cell calculated before a reload). Undefined when neither knows it.
 */
export async function rememberedCellAsOf(sheetName: string, a1: string): Promise<CellAsOf | undefined> {
  const key = cellKey(sheetName, a1);
  const inMemory = byCell.get(key);
  if (inMemory) return inMemory;
  const signedIn = session.current;
  if (!signedIn || workbookId === undefined) return undefined;
  const waiting = pendingWrites.get(key);
  if (waiting && waiting.owner === signedIn.owner) return waiting.asOf;
  const stored = await signedIn.data.cache.get<CellAsOf>(storedKey(signedIn.owner, workbookId, key));
  return stored?.value;
}
