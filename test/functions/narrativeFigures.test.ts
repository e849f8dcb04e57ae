/**
 * An independent check of the numbers: the sandbox's narratives state each market's figures in words ("concessions
 * worth 2.4% of rent", "Leased occupancy stands at 91.9%"), written from the service's own figures, not from what
 * it sends. Each narrative is read over HTTP, and the RENT.MARKET cells of the same market, as Excel shows them
 * under their number formats (rendered here from Excel's documented rules, not the add-in's), must state the same figures. A
 * percent sent in the wrong scale, read in the wrong scale or formatted in the wrong convention shows as 242% or
 * 0.92% and fails here. Both answer variants: the documented one sends open-scale percents as fractions, the
 * alternate one as points.
 */
import { SANDBOX_VARIANTS } from "../../sandbox/variant";
import { market } from "../../src/functions/marketFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

type Envelope<T> = { id: string; attributes: T };
type Narrative = Record<"overview" | "rent" | "occupancy" | "sales" | "demographics", string>;

/** Where each narrative states a figure, and the metric that holds it. */
const STATED: readonly { metric: string; section: keyof Narrative; pattern: RegExp }[] = [
  { metric: "rent_avg_t30", section: "overview", pattern: /Average asking rent is (\$[\d,]+)/ },
  { metric: "rent_growth_rate_yoy_avg", section: "overview", pattern: /rents changed (-?[\d.]+%)/ },
  { metric: "rent_1_bed_avg_t30", section: "rent", pattern: /\((\$[\d,]+) for a one-bedroom/ },
  { metric: "rent_2_bed_avg_t30", section: "rent", pattern: /(\$[\d,]+) for a two-bedroom/ },
  { metric: "ner_avg_t30", section: "rent", pattern: /Net effective rent is (\$[\d,]+)/ },
  { metric: "concession_percent_avg_t30", section: "rent", pattern: /concessions worth (-?[\d.]+%) of rent/ },
  {
    metric: "forecasted_rent_growth_rate_yoy",
    section: "rent",
    pattern: /model expects (-?[\d.]+%) rent growth/,
  },
  { metric: "leased_percent_avg_t30", section: "occupancy", pattern: /Leased occupancy stands at ([\d.]+%)/ },
  { metric: "exposure_percent_avg_t30", section: "occupancy", pattern: /with ([\d.]+%) of units exposed/ },
  { metric: "cap_rate_avg", section: "sales", pattern: /Average cap rates are (-?[\d.]+%)/ },
  { metric: "median_income", section: "demographics", pattern: /median household income of (\$[\d,]+)/ },
  { metric: "median_income_growth_yoy", section: "demographics", pattern: /\((-?[\d.]+%) year over year\)/ },
];

/**
 * What Excel shows for a number under the formats the add-in gives (Microsoft, "Number format codes"): quoted
 * text is shown as is, an unquoted "%" multiplies by 100 and shows the sign, "$" is literal, "#,##0" groups
 * thousands, and the zeros after the point are the decimals shown.
 */
function excelShows(cell: unknown): string {
  if (typeof cell !== "object" || cell === null) return String(cell);
  const { basicValue: value, numberFormat: format } = cell as { basicValue: number; numberFormat: string };
  const unquoted = format.replace(/"[^"]*"/g, "");
  const literal = [...format.matchAll(/"([^"]*)"/g)].map((match) => match[1]).join("");
  const scaled = unquoted.includes("%") ? value * 100 : value;
  const decimals = /\.(0+)/.exec(unquoted)?.[1]?.length ?? 0;
  const digits = Math.abs(scaled).toLocaleString("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: unquoted.includes(","),
  });
  const sign = scaled < 0 ? "-" : "";
  return `${sign}${unquoted.includes("$") ? "$" : ""}${digits}${unquoted.includes("%") ? "%" : ""}${literal}`;
}

const figure = (text: string) => Number(text.replace(/[$,%]/g, ""));

/**
 * Whether a shown figure ("2.42%", "$1,234.56") states what the narrative does ("2.4%", "$1,234"): each is
 * rounded from the same number, the narrative to a tenth of a point or a dollar, the cell to a hundredth, so
 * they differ by at most half of each rounding step, and a figure in the wrong unit or scale is far off.
 */
function statesTheSame(shown: string, stated: string): boolean {
  if (stated.endsWith("%") !== shown.endsWith("%") || stated.startsWith("$") !== shown.startsWith("$"))
    return false;
  const tolerance = stated.endsWith("%") ? 0.05 + 0.005 : 0.5 + 0.005;
  return Math.abs(figure(shown) - figure(stated)) <= tolerance + 1e-9;
}

/** The figure a shown percent cell states, from its value: Excel's % shows the value times 100. */
const percentShownOf = (value: number) => `${(value * 100).toFixed(2)}%`;

describe.each(SANDBOX_VARIANTS)("narratives against the RENT cells (%s variant)", (variant) => {
  let env: SignedInSandbox;

  beforeAll(async () => {
    env = await startSignedInSandbox("demo-proplus", { variant });
    // The host holds data types (ExcelApi 1.16): cells come back as formatted numbers, shown under their format.
    Object.assign(globalThis, { Office: { context: { requirements: { isSetSupported: () => true } } } });
  });

  afterAll(async () => {
    delete (globalThis as { Office?: unknown }).Office;
    await env.close();
  });

  it("every MSA's and submarket's RENT.MARKET cells state the figures of its narrative", async () => {
    const ids: number[] = [];
    for (const geoType of ["MSA", "BespokeSubmarket"]) {
      const answer = await env.raw.post<{ data: Envelope<{ id: number }>[] }>("/explore_markets", {
        account_id: env.accountId,
        market_filters: { geo_type: geoType },
        sort: "rent_avg_t30",
        limit: geoType === "MSA" ? 100 : 20,
      });
      ids.push(...answer.data.map((entry) => entry.attributes.id));
    }
    expect(ids.length).toBeGreaterThan(40);
    const metrics = STATED.map((stated) => stated.metric);
    const cells = await market(
      ids.map((id) => [id]),
      [metrics],
      undefined,
      fakeInvocation(),
    );

    let compared = 0;
    for (const [row, id] of ids.entries()) {
      const narrative = (
        await env.raw.get<{ data: Envelope<Narrative>[] }>("/markets/narratives", {
          account_id: env.accountId,
          geo_boundary_id: id,
        })
      ).data[0]?.attributes;
      if (!narrative) throw new Error(`no narrative for ${id}`);
      for (const [column, { metric, section, pattern }] of STATED.entries()) {
        const stated = pattern.exec(narrative[section])?.[1];
        if (stated === undefined) continue; // "n/a": the market has no such figure
        const cell = (cells[row] as unknown[])[column];
        const shown = excelShows(cell);
        expect({ id, metric, shown, stated, same: statesTheSame(shown, stated) }).toEqual({
          id,
          metric,
          shown,
          stated,
          same: true,
        });
        if (stated.endsWith("%")) {
          // One percent convention: the cell's value times 100 is the percentage it shows.
          const value = (cell as { basicValue: number }).basicValue;
          expect({ id, metric, shown }).toEqual({ id, metric, shown: percentShownOf(value) });
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(ids.length * 8);
  });
});
