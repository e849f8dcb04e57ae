/** Narrows a text to one of a contract enum's values (the generated `*Values` lists of src/api/schema.ts). */
export function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}
