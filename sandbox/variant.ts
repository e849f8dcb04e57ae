/**
 * The live service was seen answering in more than one form where the evidence allows two (api-notes.md,
 * "Observed on the live service"), and the vendor's own API reference examples show further forms (api-notes.md,
 * "From the vendor's documented examples, third pass"). A sandbox answers in one of them, chosen at start, so the
 * add-in can be tested against each.
 */
export const SANDBOX_VARIANTS = ["documented", "alternate", "examples"] as const;

export type SandboxVariant = (typeof SANDBOX_VARIANTS)[number];

export interface ShapeVariant {
  /** The member that holds a comp set's floor plan buckets. */
  floorPlanBuckets: "floor_plans_by_bed_bath" | "floor_plans_by_bed";
  /** How percent-like fields of open scale (`x-sent-as: either`) are written: 0.97 or 97 for 97 %. */
  percentScale: "fraction" | "points";
  /** How a plan's `*_over_time` points are dated: a day ("2024-09-10") or its end as a UTC timestamp. */
  historyPointDates: "day" | "end-of-day-utc";
  /** How a unit's rent changes are written: signed amounts ("+40.00") or dollar texts ("$10"). */
  rentChangeText: "signed" | "dollars";
  /** A concession's `updated_at_formatted`: a date ("Mar 14, 2026") or a phrase relative to now ("8 hours ago"). */
  updatedAtFormatted: "date" | "relative";
  /** Boundary names: MSAs as "Raleigh-Cary, NC" and cities "City of Raleigh", or as the Census writes them. */
  boundaryNames: "short" | "census";
  /** A survey item's `apartmentiq_property_type`: the glossary's word ("Conventional") or the API's ("standard"). */
  propertyTypeWords: "glossary" | "api";
}

const LIVE_CODE_FORMS = {
  historyPointDates: "day",
  rentChangeText: "signed",
  updatedAtFormatted: "date",
  boundaryNames: "short",
  propertyTypeWords: "glossary",
} as const;

const SHAPES: Record<SandboxVariant, ShapeVariant> = {
  // The vendor's docs example and the live code: buckets by bed and bath, percents as fractions.
  documented: { floorPlanBuckets: "floor_plans_by_bed_bath", percentScale: "fraction", ...LIVE_CODE_FORMS },
  // The other form the notes allow: buckets by bedroom count only, percents as points.
  alternate: { floorPlanBuckets: "floor_plans_by_bed", percentScale: "points", ...LIVE_CODE_FORMS },
  // Exactly as the vendor's API reference examples (api-notes third pass): history points at the end of their day
  // in UTC ("2024-09-10T23:59:59.999Z"), rent changes as "$10", "8 hours ago", MSAs named "... Metro Area" and
  // cities described "Raleigh city, North Carolina", property types as the API spells them ("standard").
  examples: {
    floorPlanBuckets: "floor_plans_by_bed_bath",
    percentScale: "fraction",
    historyPointDates: "end-of-day-utc",
    rentChangeText: "dollars",
    updatedAtFormatted: "relative",
    boundaryNames: "census",
    propertyTypeWords: "api",
  },
};

export function shapeOf(variant: SandboxVariant): ShapeVariant {
  return SHAPES[variant];
}

export function isSandboxVariant(value: string): value is SandboxVariant {
  return (SANDBOX_VARIANTS as readonly string[]).includes(value);
}

/** A percentage held in points (97.15), written in the variant's scale. */
export function percentIn(scale: ShapeVariant["percentScale"], points: number): number {
  return scale === "points" ? Math.round(points * 100) / 100 : Math.round(points * 100) / 10_000;
}
