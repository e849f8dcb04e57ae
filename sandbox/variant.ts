/**
 * The live service was seen answering in more than one form where the evidence allows two (api-notes.md,
 * "Observed on the live service"). A sandbox answers in one of them, chosen at start, so the add-in can be
 * tested against each.
 */
export const SANDBOX_VARIANTS = ["documented", "alternate"] as const;

export type SandboxVariant = (typeof SANDBOX_VARIANTS)[number];

export interface ShapeVariant {
  /** The member that holds a comp set's floor plan buckets. */
  floorPlanBuckets: "floor_plans_by_bed_bath" | "floor_plans_by_bed";
  /** How percent-like fields are written: 0.97 or 97 for 97 %. */
  percentScale: "fraction" | "points";
}

const SHAPES: Record<SandboxVariant, ShapeVariant> = {
  // The vendor's docs example and the live code: buckets by bed and bath, percents as fractions.
  documented: { floorPlanBuckets: "floor_plans_by_bed_bath", percentScale: "fraction" },
  // The other form the notes allow: buckets by bedroom count only, percents as points.
  alternate: { floorPlanBuckets: "floor_plans_by_bed", percentScale: "points" },
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
