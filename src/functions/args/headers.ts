/**
 * The `headers` argument of the spilling functions: "ids" (the default) heads each column with the field's exact
 * id, the name the `fields` argument takes and a lookup such as XMATCH("asking_rent", header) finds; "names" heads
 * it with the field's readable name from the contract ("Asking rent, avg 30 d"). docs/functions.md says why ids are
 * the default.
 */
import type { CatalogueRecord } from "../../api/fieldCatalogue";
import { labelOf } from "../../api/fieldFacts";
import { isEmptyArgument, readChoice } from "./scalars";

export const HEADER_CHOICES = ["ids", "names"] as const;
export type HeaderChoice = (typeof HEADER_CHOICES)[number];

export function readHeaders(value: unknown): HeaderChoice {
  return isEmptyArgument(value) ? "ids" : readChoice(value, "headers", HEADER_CHOICES);
}

/** How a spill heads its columns: the choice, and the record whose fields the columns are. */
export interface Headers {
  choice: HeaderChoice;
  record?: CatalogueRecord;
}

export function headerOf(field: string, headers: Headers): string {
  return headers.choice === "names" ? labelOf(field, headers.record) : field;
}
