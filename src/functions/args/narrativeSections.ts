/** RENT.NARRATIVE's `section` argument: the narrative's sections, or all of them. */

/** The narrative's text sections, in the contract's order (its Narrative attributes; the type check holds them to it). */
export const NARRATIVE_SECTIONS = [
  "overview",
  "rent",
  "occupancy",
  "construction",
  "sales",
  "demographics",
] as const;
export type NarrativeSection = (typeof NARRATIVE_SECTIONS)[number];
/** What `section` takes: a section, or "all" for a two-column table of them. */
export const SECTION_CHOICES = [...NARRATIVE_SECTIONS, "all"] as const;
/** The section a formula gets when it names none. */
export const DEFAULT_SECTION: NarrativeSection = "overview";
