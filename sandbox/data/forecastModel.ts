import { forecastGeoTypeValues } from "../../src/api/schema";
import { isOneOf } from "../../src/api/enumValues";
import { FORECAST_WINDOW_MONTHS } from "../contract/limits";
import type { Dataset } from "./dataset";
import type { Boundary } from "./geography";
import { boundaryMarket, marketBaseGrowth } from "./marketMetrics";
import type { PropertyCore } from "./properties";
import { hashSeed, round, SALT } from "./random";

export type Series = (number | null)[];

/** The first day of the month `monthsAhead` after the month of `today`, as YYYY-MM-DD. */
export function monthStart(today: string, monthsAhead: number): string {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7)) - 1 + monthsAhead;
  return new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
}

/** Dates of the model points (the first day of each month of the contract's window) from today's month. */
export function forecastPointDates(today: string): string[] {
  return Array.from({ length: FORECAST_WINDOW_MONTHS }, (_, month) => monthStart(today, month));
}

/** A smooth, seeded wobble in [-1, 1] for an id. */
function wave(seed: number, id: number, month: number, periodMonths: number): number {
  const phase = (hashSeed(seed, SALT.forecast, id) % 1000) / 1000;
  return Math.sin(2 * Math.PI * (month / periodMonths + phase));
}

/** Market rent growth drifting from today's level toward a long-run 3% (fraction per year). */
function msaGrowth(seed: number, msaIndex: number, month: number): number {
  const base = marketBaseGrowth(seed, msaIndex);
  return base + (0.03 - base) * (1 - Math.exp(-month / 24)) + 0.004 * wave(seed, msaIndex, month, 36);
}

/** Spread of the confidence bounds, widening with the horizon. */
function spread(month: number, start: number, perMonth: number): number {
  return start + perMonth * month;
}

function offsetOf(seed: number, id: number, scale: number): number {
  return ((hashSeed(seed, SALT.forecast, id, 7) % 2001) / 1000 - 1) * scale;
}

/** Whether the model covers a boundary: one of the contract's forecast types, but one ZIP code in ten lacks one. */
export function boundaryHasForecast(dataset: Dataset, boundary: Boundary): boolean {
  if (!isOneOf(forecastGeoTypeValues, boundary.geoType)) return false;
  return boundary.geoType !== "ZipCode" || hashSeed(dataset.seed, SALT.forecast, boundary.id, 11) % 10 !== 0;
}

function boundaryGrowth(dataset: Dataset, boundary: Boundary, month: number): number {
  const msa = msaGrowth(dataset.seed, boundary.msaIndex, month);
  if (boundary.geoType === "MSA") return msa;
  const submarketId =
    boundary.geoType === "BespokeSubmarket" ? boundary.id : (boundary.submarketId ?? boundary.id);
  const submarket = msa + offsetOf(dataset.seed, submarketId, 0.006);
  return boundary.geoType === "BespokeSubmarket"
    ? submarket
    : submarket + offsetOf(dataset.seed, boundary.id, 0.004);
}

const BOUND_VARIANT = /^(.*?)(_downside|_upside)?$/;

function withBound(value: number, bound: string | undefined, width: number): number {
  return bound === "_downside" ? value - width : bound === "_upside" ? value + width : value;
}

/** Rent growth is the one kind of field that use_rent_value and use_submarket_fallback act on. */
export function isRentGrowthField(field: string): boolean {
  return field.startsWith("rent_growth");
}

/** One property field over the model months; all null when the property has no forecast. */
export function propertySeries(dataset: Dataset, property: PropertyCore, field: string): Series {
  const [, base = field, bound] = BOUND_VARIANT.exec(field) ?? [];
  const submarket = dataset.boundary(property.submarketId);
  return Array.from({ length: FORECAST_WINDOW_MONTHS }, (_, month) => {
    if (!property.hasForecast || !submarket) return null;
    if (base === "rent_growth_rate_yoy") {
      const value = boundaryGrowth(dataset, submarket, month) + property.growthOffset * Math.exp(-month / 36);
      return withBound(value, bound, spread(month, 0.004, 0.0006));
    }
    const occupancy = Math.min(
      99,
      property.leasedPercent + 0.6 * wave(dataset.seed, property.id, month, 24) + month * 0.01,
    );
    return withBound(occupancy, bound, spread(month, 0.3, 0.04));
  });
}

/** One boundary field over the model months; all null for boundaries the model does not cover. */
export function boundarySeries(dataset: Dataset, boundary: Boundary, field: string, today: string): Series {
  const [, base = field, bound] = BOUND_VARIANT.exec(field) ?? [];
  if (!boundaryHasForecast(dataset, boundary))
    return Array.from({ length: FORECAST_WINDOW_MONTHS }, () => null);
  const market = boundaryMarket(dataset, boundary, today);
  const units = typeof market.total_unit_count === "number" ? market.total_unit_count : 0;
  const pipeline =
    typeof market.under_construction_unit_count_total === "number"
      ? market.under_construction_unit_count_total
      : 0;
  // Market percents are held as fractions; boundary occupancy forecasts are points (openapi.yaml x-field-units).
  const leased = typeof market.leased_percent_avg_t30 === "number" ? market.leased_percent_avg_t30 * 100 : 93;
  return Array.from({ length: FORECAST_WINDOW_MONTHS }, (_, month) => {
    const growth = boundaryGrowth(dataset, boundary, month);
    const growthWidth = spread(month, 0.003, 0.0005);
    if (base === "rent_growth_yoy") return withBound(growth, bound, growthWidth);
    const bedroom = /^rent_growth_yoy_bed_(\d)$/.exec(base);
    if (bedroom) return withBound(growth + (Number(bedroom[1]) - 1.5) * 0.002, bound, growthWidth);
    const propertyClass = /^rent_growth_yoy_class_([abc])$/.exec(base);
    if (propertyClass)
      return withBound(
        growth + { a: 0.003, b: 0, c: -0.003 }[propertyClass[1] as "a" | "b" | "c"],
        bound,
        growthWidth,
      );
    if (base === "occupancy")
      return withBound(
        Math.min(99, leased + 0.5 * wave(dataset.seed, boundary.id, month, 24)),
        bound,
        spread(month, 0.2, 0.03),
      );
    if (base === "absorption") {
      const value = units * 0.0025 * (1 + 0.3 * wave(dataset.seed, boundary.id + 1, month, 12));
      return withBound(value, bound, value * (0.1 + month * 0.004));
    }
    const deliveries = month < 24 ? pipeline / 24 : units * 0.0015;
    return withBound(
      deliveries * (1 + 0.2 * wave(dataset.seed, boundary.id + 2, month, 6)),
      bound,
      deliveries * (0.1 + month * 0.004),
    );
  });
}

/** Rule 4: rent growth turned into forecast rent in dollars from a current base rent. */
export function rentValues(growth: Series, baseRent: number | null): Series {
  return growth.map((value, month) =>
    value === null || baseRent === null ? null : baseRent * (1 + value) ** (month / 12),
  );
}

export function roundForecast(value: number | null): number | null {
  return value === null ? null : round(value, 4);
}
