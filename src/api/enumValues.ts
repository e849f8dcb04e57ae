/** Whether a value is one of a contract enum's values (the generated `*Values` lists of schema.ts), narrowing it. */
export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (values as readonly string[]).includes(value);
}
