/**
 * Sorting a market comparison's bars. A chart's series read cells in order, so the bars are in the block's order,
 * and the block's order is RENT.MARKETS' own ranking (its `sort` and `direction` options): sorting the bars means
 * asking the formula for that ranking, which the pane does by rewriting those two options in the formula's text.
 * The block the person sees and the chart beside it then agree, in Excel with or without the add-in running.
 */
import { bodyDefaults } from "../../api/requestFacts";
import { blockColumns, type BlockColumn } from "./blockColumns";
import { ChartBlockError } from "./chartBlock";
import { comparisonFigure, isChartProblem } from "./chartPlan";

/** How the bars are ordered: as the block ranks them now, or by the charted figure. */
export const BAR_ORDERS = ["block", "largest", "smallest"] as const;
export type BarOrder = (typeof BAR_ORDERS)[number];

/** The direction RENT.MARKETS takes for an order by the charted figure. */
const DIRECTION: Readonly<Record<Exclude<BarOrder, "block">, "asc" | "desc">> = {
  largest: "desc",
  smallest: "asc",
};

export interface MarketsRanking {
  /** The formula asking for the ranking (the same text when it already did). */
  readonly formula: string;
  /** The options text set, e.g. "sort=rent_avg_t30; direction=asc". */
  readonly ranking: string;
  /** The formula's limit: how many markets the service returns after ranking all that match. */
  readonly limit: number;
}

/** The arguments of the call whose "(" is at `open`: each argument's text span, and where the ")" is. */
function argumentsAt(
  formula: string,
  open: number,
): { spans: [number, number][]; close: number } | undefined {
  const spans: [number, number][] = [];
  let depth = 0;
  let start = open + 1;
  for (let at = open + 1; at < formula.length; at++) {
    const char = formula[at];
    if (char === '"') {
      // A text literal: "" inside it is a quote.
      at++;
      while (at < formula.length && !(formula[at] === '"' && formula[at + 1] !== '"'))
        at += formula[at] === '"' ? 2 : 1;
    } else if (char === "(" || char === "{") depth++;
    else if ((char === ")" || char === "}") && depth > 0) depth--;
    else if (char === ")" && depth === 0) {
      spans.push([start, at]);
      return { spans, close: at };
    } else if (char === "," && depth === 0) {
      spans.push([start, at]);
      start = at + 1;
    }
  }
  return undefined;
}

/** The text of an Excel text literal (`"a ""b"""` is `a "b"`); undefined when `text` is not one literal. */
function literalText(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^"(?:[^"]|"")*"$/.test(trimmed)) return undefined;
  return trimmed.slice(1, -1).replace(/""/g, '"');
}

/** What explore markets takes for a direction or limit left out (the contract's defaults, as RENT.MARKETS reads them). */
const MARKETS_DEFAULTS = bodyDefaults("exploreMarkets");

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * RENT.MARKETS' formula with its options asking for the markets ranked by `metric` (its id), largest or smallest
 * first; every other option is kept as written. Options that are no text typed in the formula (a range of cells,
 * a reference, an expression) are the person's to change: the answer says which and what to set there.
 */
export function rankedMarketsFormula(
  formula: string,
  metric: string,
  order: Exclude<BarOrder, "block">,
): MarketsRanking | { problem: string } {
  const call = /(?:^|[^A-Za-z0-9_.])RENT\.MARKETS\s*\(/i.exec(formula);
  const args = call ? argumentsAt(formula, call.index + call[0].length - 1) : undefined;
  if (!call || !args) return { problem: "This block's formula has no RENT.MARKETS call the pane can read." };
  const ranking = `sort=${metric}; direction=${DIRECTION[order]}`;
  const [options] = args.spans.slice(1);
  const given = options ? formula.slice(options[0], options[1]) : "";
  const text = given.trim() === "" ? "" : literalText(given);
  if (text === undefined)
    return {
      problem:
        `RENT.MARKETS takes its options from ${given.trim()}, which the pane does not rewrite: ` +
        `set ${ranking} there to sort the block and its bars.`,
    };
  const parts = text.split(";").filter((part) => part.trim() !== "");
  const valueOf = (name: string) =>
    parts
      .map((part) => new RegExp(`^\\s*${name}\\s*=(.*)$`, "i").exec(part)?.[1]?.trim())
      .find((value) => value !== undefined);
  const kept = parts.filter((part) => !/^\s*(sort|direction)\s*=/i.test(part)).map((part) => part.trim());
  const limit = Number(valueOf("limit") ?? MARKETS_DEFAULTS.limit);
  // Already ranked so (a direction left out is the service's default): the formula stays as the person wrote it.
  const direction = (valueOf("direction") ?? String(MARKETS_DEFAULTS.sort_direction)).toLowerCase();
  if (valueOf("sort")?.toLowerCase() === metric.toLowerCase() && direction === DIRECTION[order])
    return { formula, ranking, limit };
  const newOptions = quoted([...kept, ranking].join("; "));
  const rewritten = options
    ? formula.slice(0, options[0]) +
      (given.startsWith(" ") ? " " : "") +
      newOptions +
      formula.slice(options[1])
    : formula.slice(0, args.close) + `, ${newOptions}` + formula.slice(args.close);
  return { formula: rewritten, ranking, limit };
}

/** What sorting a market block by its charted figure asks of its formula. */
export interface MarketsSort extends MarketsRanking {
  /** The figure the bars show, as the block heads it. */
  readonly figure: BlockColumn;
  /** How many markets the block lists now. */
  readonly markets: number;
  /** Whether the formula changes (false: it already ranks so). */
  readonly changed: boolean;
}

/**
 * How the RENT.MARKETS block anchored at `anchor` is to be ranked for its bars to read `order` by the charted
 * figure (`field`, or the block's first metric). Reads only; the caller writes the formula once the chart is made.
 * Fails with a ChartBlockError saying why when the block shows no table or its options are not rewritable text.
 */
export async function planMarketsSort(
  context: Excel.RequestContext,
  anchor: Excel.Range,
  field: string | undefined,
  order: Exclude<BarOrder, "block">,
): Promise<MarketsSort> {
  anchor.load("formulas");
  const spill = anchor.getSpillingToRangeOrNullObject();
  spill.load("values");
  await context.sync();
  const formula: unknown = anchor.formulas[0]?.[0];
  const header = spill.isNullObject ? undefined : spill.values[0];
  if (typeof formula !== "string" || !header)
    throw new ChartBlockError("The block shows no table to sort: it has spilled no rows.");
  const figure = comparisonFigure(blockColumns(header), field === undefined ? {} : { field });
  if (isChartProblem(figure)) throw new ChartBlockError(figure.problem);
  const ranked = rankedMarketsFormula(formula, figure.field, order);
  if ("problem" in ranked) throw new ChartBlockError(ranked.problem);
  return { ...ranked, figure, markets: spill.values.length - 1, changed: ranked.formula !== formula };
}
