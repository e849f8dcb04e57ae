/**
 * How a typed field word is compared with the contract's names and synonyms (`x-field-synonyms`): case, spaces
 * and hyphens do not matter, so "Asking rent" and "asking-rent" are asking_rent. The generator and the functions
 * share it, so a synonym is stored as a function will look it up.
 */
export function fieldWordKey(word: string): string {
  return word
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}
