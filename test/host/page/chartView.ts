/**
 * The charts of the active sheet, drawn as SVG over the grid where Excel would place them: a small renderer of
 * the chart types the stand-in accepts (test/host/workbook/charts.ts), enough to see a chart and for the
 * end-to-end tests to read it. Each series' `<g>` carries what it plots (`data-points`, as [x, y] pairs read from
 * its cells now), so a test checks the series against the block without reading pixels.
 */
import { cellAddress } from "../../../src/excel/a1";
import type { CellReference, ChartRecord } from "../workbook/charts";
import type { Workbook } from "../workbook/workbook";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 560;
const HEIGHT = 360;
const PLOT = { left: 70, right: 20, top: 40, bottom: 96 };
/** Excel's default series colours (Office theme accents 1 to 6). */
const COLOURS = ["#4472C4", "#ED7D31", "#A5A5A5", "#FFC000", "#5B9BD5", "#70AD47"];

type Point = [x: number | string | null, y: number | null];

function svg<K extends keyof SVGElementTagNameMap>(
  name: K,
  attributes: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** Excel serial day to a date in UTC (1900 date system, after February 1900). */
function serialDate(serial: number): Date {
  return new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The few number formats the add-in gives chart axes, as Excel shows them; anything else as General. */
export function formatAxisNumber(value: number, format: string): string {
  if (/y/.test(format)) {
    const date = serialDate(value);
    return `${MONTHS[date.getUTCMonth()] ?? ""} ${date.getUTCFullYear()}`;
  }
  if (format.includes("%")) {
    const decimals = /0\.(0+)%/.exec(format)?.[1]?.length ?? 0;
    return `${(value * 100).toFixed(decimals)}%`;
  }
  const grouped = Math.round(value).toLocaleString("en-US");
  if (format.startsWith("$")) return value < 0 ? `-$${grouped.slice(1)}` : `$${grouped}`;
  if (format.includes("#,##0")) return grouped;
  return String(Math.round(value * 100) / 100);
}

export class ChartView {
  private drawScheduled = false;

  constructor(
    private readonly workbook: Workbook,
    private readonly layer: HTMLElement,
    private readonly grid: HTMLTableElement,
  ) {
    workbook.onChange(() => this.scheduleDraw());
    this.draw();
  }

  private scheduleDraw(): void {
    if (this.drawScheduled) return;
    this.drawScheduled = true;
    // After the grid's own redraw (registered first): the charts sit on the cells it has just laid out.
    requestAnimationFrame(() => {
      this.drawScheduled = false;
      this.draw();
    });
  }

  private cells(reference: CellReference | undefined): (number | string | boolean | null)[] {
    if (!reference) return [];
    const sheet = this.workbook.findSheet(reference.sheet);
    const values: (number | string | boolean | null)[] = [];
    for (let r = 0; r < reference.rect.rowCount; r++)
      for (let c = 0; c < reference.rect.columnCount; c++) {
        const value = sheet?.cell(reference.rect.row + r, reference.rect.column + c)?.value;
        values.push(value === undefined || value === "" ? null : value);
      }
    return values;
  }

  draw(): void {
    const charts = this.workbook.activeSheet.charts.map((chart) => this.chart(chart));
    this.layer.replaceChildren(...charts);
  }

  /** Where the chart's top-left cell is drawn; past the drawn grid, beside its last column. */
  private place(chart: ChartRecord): { left: number; top: number } {
    const cell = this.grid.querySelector<HTMLElement>(
      `td[data-address="${cellAddress(chart.position.row, chart.position.column)}"]`,
    );
    return cell
      ? { left: cell.offsetLeft, top: cell.offsetTop }
      : { left: this.grid.offsetWidth + 16, top: 0 };
  }

  private chart(chart: ChartRecord): HTMLElement {
    const frame = document.createElement("figure");
    frame.className = "host-chart";
    frame.dataset.chartName = chart.name;
    const { left, top } = this.place(chart);
    frame.style.left = `${left}px`;
    frame.style.top = `${top}px`;
    const root = svg("svg", {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      width: WIDTH,
      height: HEIGHT,
      role: "img",
      "aria-label": chart.title || chart.name,
      "data-chart-type": chart.type,
    });
    root.append(
      svg("text", { x: WIDTH / 2, y: 22, class: "chart-title", "text-anchor": "middle" }, chart.title),
    );

    const bars = chart.type === "BarClustered" || chart.type === "ColumnClustered";
    const categorical = bars || chart.type.startsWith("Line");
    const series = chart.series.map((record, index) => {
      const ys = this.cells(record.values);
      // A line or bar chart shares its first series' categories; a scatter has each series' own x values.
      const xs = this.cells(categorical ? (chart.series[0]?.xValues ?? record.xValues) : record.xValues);
      const points: Point[] = ys.map((y, i) => [
        categorical
          ? typeof xs[i] === "number"
            ? (xs[i] as number)
            : String(xs[i] ?? i + 1)
          : typeof xs[i] === "number"
            ? (xs[i] as number)
            : null,
        typeof y === "number" ? y : null,
      ]);
      return { record, points, colour: COLOURS[index % COLOURS.length] ?? "#4472C4" };
    });

    const numbers = series.flatMap((s) => s.points.flatMap(([, y]) => (y === null ? [] : [y])));
    const low = Math.min(0, ...numbers);
    const highest = numbers.length > 0 ? Math.max(...numbers) : low;
    const high = highest > low ? highest : low + 1;
    const categoryCount = Math.max(1, ...series.map((s) => s.points.length));
    const xNumbers = series.flatMap((s) => s.points.flatMap(([x]) => (typeof x === "number" ? [x] : [])));
    const xLow = xNumbers.length > 0 ? Math.min(...xNumbers) : 0;
    const xHighest = xNumbers.length > 0 ? Math.max(...xNumbers) : xLow;
    const xHigh = xHighest > xLow ? xHighest : xLow + 1;
    // Horizontal bars name their categories to the left of the plot: room for a market's name.
    const plotLeft = chart.type === "BarClustered" ? 170 : PLOT.left;
    const plotWidth = WIDTH - plotLeft - PLOT.right;
    const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
    // Horizontal bars put the values along x and the categories down y.
    const valueAt = (y: number) =>
      chart.type === "BarClustered"
        ? plotLeft + ((y - low) / (high - low)) * plotWidth
        : PLOT.top + plotHeight - ((y - low) / (high - low)) * plotHeight;
    const slot = (index: number) => {
      const order = chart.categoryAxis.reversePlotOrder ? index : categoryCount - 1 - index;
      return chart.type === "BarClustered"
        ? PLOT.top + ((order + 0.5) / categoryCount) * plotHeight
        : plotLeft + ((index + 0.5) / categoryCount) * plotWidth;
    };
    const xAt = (x: number | string | null, index: number) =>
      categorical || typeof x !== "number"
        ? slot(index)
        : plotLeft + ((x - xLow) / (xHigh - xLow)) * plotWidth;

    root.append(
      svg("rect", { x: plotLeft, y: PLOT.top, width: plotWidth, height: plotHeight, class: "chart-plot" }),
    );
    // Value axis: its lowest and highest values and its title.
    for (const value of [low, (low + high) / 2, high]) {
      const text = formatAxisNumber(value, chart.valueAxis.numberFormat);
      if (chart.type === "BarClustered")
        root.append(
          svg(
            "text",
            {
              x: valueAt(value),
              y: PLOT.top + plotHeight + 14,
              class: "chart-tick",
              "text-anchor": "middle",
            },
            text,
          ),
        );
      else
        root.append(
          svg(
            "text",
            { x: plotLeft - 6, y: valueAt(value) + 4, class: "chart-tick", "text-anchor": "end" },
            text,
          ),
        );
    }
    const valueTitle =
      chart.type === "BarClustered"
        ? svg(
            "text",
            {
              x: plotLeft + plotWidth / 2,
              y: PLOT.top + plotHeight + 30,
              class: "chart-axis-title value-axis-title",
              "text-anchor": "middle",
            },
            chart.valueAxis.title,
          )
        : svg(
            "text",
            {
              x: 14,
              y: PLOT.top + plotHeight / 2,
              class: "chart-axis-title value-axis-title",
              "text-anchor": "middle",
              transform: `rotate(-90 14 ${PLOT.top + plotHeight / 2})`,
            },
            chart.valueAxis.title,
          );
    root.append(valueTitle);
    const categoryTitle =
      chart.type === "BarClustered"
        ? svg(
            "text",
            {
              x: 14,
              y: PLOT.top + plotHeight / 2,
              class: "chart-axis-title category-axis-title",
              "text-anchor": "middle",
              transform: `rotate(-90 14 ${PLOT.top + plotHeight / 2})`,
            },
            chart.categoryAxis.title,
          )
        : svg(
            "text",
            {
              x: plotLeft + plotWidth / 2,
              y: PLOT.top + plotHeight + 30,
              class: "chart-axis-title category-axis-title",
              "text-anchor": "middle",
            },
            chart.categoryAxis.title,
          );
    root.append(categoryTitle);
    // Category or x axis: first and last labels.
    const firstPoints = series[0]?.points ?? [];
    const label = (x: number | string | null) =>
      typeof x === "number" ? formatAxisNumber(x, chart.categoryAxis.numberFormat) : String(x ?? "");
    if (chart.type === "BarClustered") {
      firstPoints.forEach(([x], index) =>
        root.append(
          svg(
            "text",
            { x: plotLeft - 4, y: slot(index) + 4, class: "chart-tick", "text-anchor": "end" },
            label(x).length > 23 ? `${label(x).slice(0, 22)}…` : label(x),
          ),
        ),
      );
    } else if (firstPoints.length > 0) {
      // The first and last labels, at the plot's two ends.
      const ends = categorical
        ? [firstPoints[0]?.[0] ?? null, firstPoints.at(-1)?.[0] ?? null]
        : [xLow, xHigh];
      ends.forEach((x, end) =>
        root.append(
          svg(
            "text",
            {
              x: end === 0 ? plotLeft : plotLeft + plotWidth,
              y: PLOT.top + plotHeight + 14,
              class: "chart-tick",
              "text-anchor": end === 0 ? "start" : "end",
            },
            label(x),
          ),
        ),
      );
    }

    const barHeight = (plotHeight / categoryCount / Math.max(1, series.length)) * 0.8;
    series.forEach(({ record, points, colour }, seriesIndex) => {
      const group = svg("g", {
        class: "chart-series",
        "data-series-name": record.name,
        "data-points": JSON.stringify(points),
        "data-line-style": record.lineStyle,
      });
      if (bars) {
        points.forEach(([, y], index) => {
          if (y === null) return;
          const base = valueAt(Math.max(low, 0));
          const end = valueAt(y);
          const offset = slot(index) - (barHeight * series.length) / 2 + seriesIndex * barHeight;
          group.append(
            chart.type === "BarClustered"
              ? svg("rect", {
                  x: Math.min(base, end),
                  y: offset,
                  width: Math.abs(end - base),
                  height: barHeight,
                  fill: colour,
                })
              : svg("rect", {
                  x: offset,
                  y: Math.min(base, end),
                  width: barHeight,
                  height: Math.abs(end - base),
                  fill: colour,
                }),
          );
        });
      } else {
        const drawn = points.flatMap(([x, y], index) =>
          y === null || (!categorical && x === null) ? [] : [[xAt(x, index), valueAt(y)] as const],
        );
        const withLines = chart.type !== "XYScatter";
        if (withLines && drawn.length > 1)
          group.append(
            svg("polyline", {
              points: drawn.map(([x, y]) => `${x},${y}`).join(" "),
              fill: "none",
              stroke: colour,
              "stroke-width": 2,
              ...(record.lineStyle === "Dash" ? { "stroke-dasharray": "6 4" } : {}),
            }),
          );
        if (!withLines || chart.type === "LineMarkers" || chart.type === "XYScatterLines")
          for (const [x, y] of drawn) group.append(svg("circle", { cx: x, cy: y, r: 4, fill: colour }));
      }
      root.append(group);
    });

    // The legend along the bottom, as the add-in places it: two rows at most, then how many more.
    let legendX = 12;
    let legendRow = 0;
    for (const [index, { record, colour }] of series.entries()) {
      const width = 24 + record.name.length * 6.2;
      if (legendX + width > WIDTH - 12 && legendX > 12) {
        legendRow++;
        legendX = 12;
      }
      const y = HEIGHT - 54 + legendRow * 18;
      if (legendRow > 1) {
        root.append(
          svg("text", { x: 12, y: HEIGHT - 6, class: "chart-legend" }, `and ${series.length - index} more`),
        );
        break;
      }
      root.append(svg("rect", { x: legendX, y, width: 10, height: 10, fill: colour }));
      root.append(svg("text", { x: legendX + 14, y: y + 9, class: "chart-legend" }, record.name));
      legendX += width;
    }
    frame.append(root);
    return frame;
  }
}
