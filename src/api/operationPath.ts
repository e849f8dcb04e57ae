import type { Operation } from "./operations";

/** The path of an operation below the API base with its path parameters filled in (escaped). */
export function operationPath(
  operation: Pick<Operation, "operationId" | "path">,
  values: Readonly<Record<string, string | number>> = {},
): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${operation.operationId} needs ${name}`);
    return encodeURIComponent(String(value));
  });
}
