import { operationById } from "../operations";
import {
  dayAt,
  FieldPath,
  idAt,
  isRecord,
  numberAt,
  objectAt,
  recordsAt,
  textAt,
  type AnswerReader,
} from "./answerForm";
import { percentsAsFractions } from "./percentScale";

/** A survey or floor plan record in the add-in's form: flat fields plus nested groups, numbers as numbers. */
export type CompSetRecord = Record<string, unknown>;

export interface MarketSurveyTable {
  items: CompSetRecord[];
  /** The comps' averages, when the service sent them. */
  compAverage: CompSetRecord | null;
}

const SURVEY_NUMBERS = [
  "distance",
  "year_built",
  "total_units",
  "number_of_stories",
  "avg_rent",
  "avg_sq_ft",
  "avg_rent_per_sq_ft",
  "total_monthly_leasing_price_psf",
  "all_in_net_effective_rent_psf",
];
const SURVEY_PERCENTS = [
  "leased_percent",
  "advertised_occupancy_percent",
  "concession_percentage",
  "cancelled_applications_percentage_last_30_days",
];

/** `{"Pool": true, "Gym": false}` or `["Pool"]`: the names the property has. */
function amenityNames(value: unknown, at: FieldPath): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map((name, index) => textAt(name, at.member(index)));
  return Object.entries(objectAt(value, at))
    .filter(([, has]) => has === true || has === "true" || has === 1)
    .map(([name]) => name);
}

/** A concessions object (live), its display text (earlier form), or none. */
function concessionText(value: unknown, at: FieldPath): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  const display = objectAt(value, at).display_text;
  return display === null || display === undefined ? null : textAt(display, at.member("display_text"));
}

const snakeCase = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");

/**
 * Fees keyed by kind, each `{min, max}`: from the live object (`{admin: {title, min, max}, application: 50}`)
 * or from a list of `{name, amount}` (the earlier form).
 */
function feeRanges(
  value: unknown,
  at: FieldPath,
): Record<string, { min: number | null; max: number | null }> {
  if (value === null || value === undefined) return {};
  const ranges: Record<string, { min: number | null; max: number | null }> = {};
  if (Array.isArray(value)) {
    recordsAt(value, at).forEach((fee, index) => {
      const amount = numberAt(fee.amount, at.member(index).member("amount"));
      ranges[snakeCase(textAt(fee.name, at.member(index).member("name")))] = { min: amount, max: amount };
    });
    return ranges;
  }
  for (const [kind, fee] of Object.entries(objectAt(value, at))) {
    const here = at.member(kind);
    if (isRecord(fee)) {
      ranges[kind] = {
        min: numberAt(fee.min, here.member("min")),
        max: numberAt(fee.max, here.member("max")),
      };
    } else {
      const amount = numberAt(fee, here);
      ranges[kind] = { min: amount, max: amount };
    }
  }
  return ranges;
}

function numbersIn(record: CompSetRecord, fields: readonly string[], at: FieldPath): void {
  for (const field of fields) if (field in record) record[field] = numberAt(record[field], at.member(field));
}

/** Every value of an object keyed by unit type or bed/bath, as a number. */
function keyedNumbers(value: unknown, at: FieldPath): Record<string, number | null> {
  return Object.fromEntries(
    Object.entries(objectAt(value, at)).map(([key, inner]) => [key, numberAt(inner, at.member(key))]),
  );
}

/** A survey item or the comps' average with its numbers read; its percents are still as the service sent them. */
function surveyRecord(raw: Record<string, unknown>, at: FieldPath, isItem: boolean) {
  const { id, property_id: propertyId, ...rest } = raw;
  const record: CompSetRecord = isItem
    ? { property_id: idAt(propertyId ?? id, at.member("id")), ...rest }
    : rest;
  numbersIn(record, [...SURVEY_NUMBERS, ...SURVEY_PERCENTS], at);
  if (record.exposure !== undefined && record.exposure !== null)
    record.exposure = keyedNumbers(record.exposure, at.member("exposure"));
  if (record.by_unit_type_concession_percentage_avg !== undefined)
    record.by_unit_type_concession_percentage_avg = keyedNumbers(
      record.by_unit_type_concession_percentage_avg,
      at.member("by_unit_type_concession_percentage_avg"),
    );
  if ("amenities" in record) record.amenities = amenityNames(record.amenities, at.member("amenities"));
  if ("concessions" in record)
    record.concessions = concessionText(record.concessions, at.member("concessions"));
  if ("fees_and_deposits" in record)
    record.fees_and_deposits = feeRanges(record.fees_and_deposits, at.member("fees_and_deposits"));
  return record;
}

/** GET /comp_sets/{id}/market_survey: items keyed by `id` or `property_id`, percents as fractions. */
export const marketSurveyReader: AnswerReader<MarketSurveyTable> = {
  endpoint: operationById("getMarketSurvey").path,
  read(body, at) {
    const data = at.member("data");
    const attributes = objectAt(
      objectAt(objectAt(body, at).data, data).attributes,
      data.member("attributes"),
    );
    const itemsAt = data.member("attributes").member("market_survey_items");
    const items = recordsAt(attributes.market_survey_items, itemsAt);
    const average = attributes.comp_average_column;
    const averageAt = data.member("attributes").member("comp_average_column");
    const averageRecord = average === null || average === undefined ? null : objectAt(average, averageAt);
    const read = items.map((item, index) => surveyRecord(item, itemsAt.member(index), true));
    const compAverage = averageRecord ? surveyRecord(averageRecord, averageAt, false) : null;
    // The items and the comps' average are one answer: each open field's scale is judged on all of them.
    percentsAsFractions([...read, ...(compAverage ? [compAverage] : [])], "survey");
    return { items: read, compAverage };
  },
};

const PLAN_NUMBERS = [
  "bedroom_count",
  "bathroom_count",
  "asking_rent",
  "asking_rent_change",
  "asking_rent_per_sq_ft",
  "net_effective_rent",
  "net_effective_rent_change",
  "net_effective_rent_per_sq_ft",
  "all_in_rent",
  "all_in_rent_per_sqft",
  "all_in_ner",
  "all_in_ner_per_sqft",
  "sqft",
  "days_on_market",
  "unit_count",
  "available_unit_count",
  "unit_mix_est",
];
const PLAN_PERCENTS = ["asking_rent_change_percent", "net_effective_rent_change_percent", "unit_mix_percent"];
const HISTORIES = {
  asking_rent_over_time: "asking_rent",
  net_effective_rent_over_time: "net_effective_rent",
} as const;

/** The figures a floor plan history holds per collection day (the live `_over_time` arrays). */
export const FLOOR_PLAN_HISTORY_FIGURES = Object.values(HISTORIES);

/** `[{collected_at, value}]` as a map from day to value; a point dated by a timestamp counts for its UTC day. */
function history(value: unknown, at: FieldPath): Map<string, number | null> {
  const points = new Map<string, number | null>();
  recordsAt(value, at).forEach((point, index) => {
    const here = at.member(index);
    points.set(
      dayAt(point.collected_at, here.member("collected_at")),
      numberAt(point.value, here.member("value")),
    );
  });
  return points;
}

/**
 * One plan as rows: with `_over_time` histories (live), a row per collection day, the latest carrying the plan's
 * figures and earlier days only the rents the histories hold; without them (one entry per plan and day), as is.
 */
function planRows(raw: Record<string, unknown>, at: FieldPath): CompSetRecord[] {
  const { id, property_id: propertyId, ...rest } = raw;
  const plan: CompSetRecord = { property_id: idAt(propertyId ?? id, at.member("property_id")), ...rest };
  numbersIn(plan, [...PLAN_NUMBERS, ...PLAN_PERCENTS], at);
  const histories = Object.entries(HISTORIES)
    .filter(([field]) => plan[field] !== undefined && plan[field] !== null)
    .map(([field, figure]) => ({ figure, points: history(plan[field], at.member(field)) }));
  for (const field of Object.keys(HISTORIES)) delete plan[field];
  if (histories.length === 0) return [plan];
  const days = [...new Set(histories.flatMap(({ points }) => [...points.keys()]))].sort();
  const latest = days.at(-1);
  const identity = {
    property_id: plan.property_id,
    property_name: plan.property_name,
    subject_property: plan.subject_property,
    name: plan.name,
    bedroom_count: plan.bedroom_count,
    bathroom_count: plan.bathroom_count,
  };
  return days.map((day) => {
    const row: CompSetRecord =
      day === latest ? { ...plan, collected_at: day } : { ...identity, collected_at: day };
    for (const { figure, points } of histories) row[figure] = points.get(day) ?? null;
    return row;
  });
}

export const FLOOR_PLAN_BUCKET_KEYS = ["floor_plans_by_bed_bath", "floor_plans_by_bed"] as const;

/**
 * GET /comp_sets/{id}/floor_plans: buckets by bed and bath or by bed, plans keyed by `property_id` or `id`,
 * percents as fractions; one row per plan and collection day, oldest day first within a plan.
 */
export const floorPlansReader: AnswerReader<CompSetRecord[]> = {
  endpoint: operationById("listCompSetFloorPlans").path,
  read(body, at) {
    const data = at.member("data");
    const attributesAt = data.member("attributes");
    const attributes = objectAt(objectAt(objectAt(body, at).data, data).attributes, attributesAt);
    const key = FLOOR_PLAN_BUCKET_KEYS.find((name) => attributes[name] !== undefined);
    if (!key)
      return attributesAt.member(FLOOR_PLAN_BUCKET_KEYS.join(" or ")).fail("a list of buckets", undefined);
    const bucketsAt = attributesAt.member(key);
    const plans = recordsAt(attributes[key], bucketsAt).flatMap((bucket, index) =>
      recordsAt(bucket.floor_plans, bucketsAt.member(index).member("floor_plans")).map((plan, planIndex) => ({
        plan,
        at: bucketsAt.member(index).member("floor_plans").member(planIndex),
      })),
    );
    const rows = plans.flatMap(({ plan, at: planAt }) => planRows(plan, planAt));
    percentsAsFractions(rows, "floorPlan");
    return rows;
  },
};

/** A list envelope `{data: [{id, attributes}]}` whose records the add-in reads field by field later. */
export function listEnvelopeReader<T>(endpoint: string): AnswerReader<T> {
  return {
    endpoint,
    read(body, at) {
      const data = at.member("data");
      recordsAt(objectAt(body, at).data, data).forEach((record, index) =>
        objectAt(record.attributes, data.member(index).member("attributes")),
      );
      return body as T;
    },
  };
}
