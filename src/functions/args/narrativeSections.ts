/** RENT.NARRATIVE's `section` argument: the narrative's sections, or all of them. */
import type { components } from "../../api/schema";

type NarrativeAttributes = components["schemas"]["Narrative"]["attributes"];
/** The narrative's members that are not a section of its text: its ids and its date. */
type NotText = "id" | "geo_boundary_id" | "analysis_date";
export type NarrativeSection = Exclude<keyof NarrativeAttributes, NotText>;

/**
 * What each text section of the contract's Narrative tells, in the contract's order. Its type holds it to the
 * contract both ways: a section the contract adds is a missing key, one it drops an unknown key.
 */
export const SECTION_MEANINGS: Readonly<Record<NarrativeSection, string>> = {
  overview: "The market in a paragraph",
  rent: "Rents and their trend",
  occupancy: "Occupancy and leasing",
  construction: "Pipeline and deliveries",
  sales: "Transactions and prices",
  demographics: "Population, income and jobs",
};

/** The narrative's text sections, in the contract's order. */
export const NARRATIVE_SECTIONS = Object.keys(SECTION_MEANINGS) as readonly NarrativeSection[];
/** What `section` takes: a section, or "all" for a two-column table of them. */
export const SECTION_CHOICES: readonly (NarrativeSection | "all")[] = [...NARRATIVE_SECTIONS, "all"];
/** The section a formula gets when it names none. */
export const DEFAULT_SECTION: NarrativeSection = "overview";
