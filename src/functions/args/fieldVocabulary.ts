/**
 * One vocabulary for every function that takes a field name: a field's own name, or a word the contract lists
 * for it (`x-field-synonyms`: the export's avg_rent for asking_rent, "occupancy"). A word that names several
 * fields is refused with each and what it means; an unknown word with "Did you mean" over every name the
 * function takes and their synonyms, so a word the vocabulary has is suggested wherever it is typed.
 */
import { factsOf, fieldsNamed } from "../../api/fieldFacts";
import { fieldWordKey } from "../../api/fieldWordKey";
import { ArgumentError } from "../cellErrors";
import { closestName, suggestionFor } from "./suggest";

const quoted = (field: string) => `"${field}"`;

/** A field with what it means, where the contract says: "leased_pct" (leased occupancy: ...). */
function withMeaning(field: string): string {
  const means = factsOf(field)?.means;
  return means === undefined ? quoted(field) : `${quoted(field)} (${means})`;
}

/** "Did you mean" over the offered names and their synonyms, a synonym answered with the field it names. */
function vocabularySuggestion(typed: string, offered: readonly string[]): string {
  const words = new Map<string, string[]>();
  for (const field of offered)
    for (const word of [field, ...(factsOf(field)?.synonyms ?? [])])
      words.set(word, [...new Set([...(words.get(word) ?? []), field])]);
  const closest = closestName(fieldWordKey(typed), words.keys());
  const fields = closest === undefined ? [] : (words.get(closest) ?? []);
  if (fields.length === 0) return suggestionFor(typed, offered);
  return ` Did you mean ${fields.map(withMeaning).join(" or ")}?`;
}

/**
 * The field of `offered` (the names a function takes) that `typed` names. `unknown` starts the message for a word
 * the vocabulary does not have ("the property export has no column \"x\"").
 */
export function readFieldName(typed: string, offered: readonly string[], unknown: string): string {
  const named = fieldsNamed(typed, offered);
  if (named.length === 1) return named[0] as string;
  if (named.length > 1)
    throw new ArgumentError(
      `"${typed}" names ${named.length} fields: ${named.map(withMeaning).join(" or ")}. Name one.`,
    );
  throw new ArgumentError(`${unknown}.${vocabularySuggestion(typed, offered)}`);
}
