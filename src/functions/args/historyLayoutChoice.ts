/**
 * The `layout` argument of RENT.HISTORY and RENT.FLOORPLANHISTORY: "long" (the default) or "wide"
 * (shape/historyLayout.ts says what each lays out). Any other word is a #VALUE! that names the choices and, where
 * it can tell, the one meant: a near spelling ("wdie"), or a word people use for one of them ("horizontal").
 */
import { ArgumentError } from "../cellErrors";
import { DEFAULT_HISTORY_LAYOUT, HISTORY_LAYOUTS, type HistoryLayout } from "../shape/historyLayout";
import { describe, isEmptyArgument, plainValue } from "./scalars";
import { closestName } from "./suggest";

/** Words for a layout that are not its name: suggested, never taken in its stead. */
const LAYOUT_WORDS: Readonly<Record<string, HistoryLayout>> = {
  horizontal: "wide",
  across: "wide",
  columns: "wide",
  grid: "wide",
  pivot: "wide",
  matrix: "wide",
  vertical: "long",
  down: "long",
  rows: "long",
  stacked: "long",
  tall: "long",
  table: "long",
};

export function readHistoryLayout(value: unknown): HistoryLayout {
  if (isEmptyArgument(value)) return DEFAULT_HISTORY_LAYOUT;
  const plain = plainValue(value);
  const word = typeof plain === "string" ? plain.trim().toLowerCase() : "";
  const layout = HISTORY_LAYOUTS.find((choice) => choice === word);
  if (layout) return layout;
  const meant = closestName(word, HISTORY_LAYOUTS) ?? LAYOUT_WORDS[word];
  throw new ArgumentError(
    `layout must be ${HISTORY_LAYOUTS.join(" or ")}, not ${describe(plain)}.` +
      (meant === undefined ? "" : ` Did you mean "${meant}"?`),
  );
}
