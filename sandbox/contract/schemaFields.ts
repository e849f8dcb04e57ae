import { loadOpenApiDocument, resolvePointer, type JsonObject } from "./openapiDocument";

/** The properties of a component schema, read from the contract. */
export function schemaProperties(schemaName: string): Record<string, JsonObject> {
  const schema = resolvePointer(loadOpenApiDocument(), `#/components/schemas/${schemaName}`) as
    JsonObject | undefined;
  if (!schema?.properties) throw new Error(`No schema ${schemaName} with properties in the contract`);
  return schema.properties as Record<string, JsonObject>;
}

/**
 * Names of a schema's number or integer properties (nullable or not), without the amounts the service writes as
 * text (`x-sent-as: text`, "$10"), which a number check would refuse and the readers read as amounts.
 */
export function numericFields(schemaName: string): string[] {
  return Object.entries(schemaProperties(schemaName))
    .filter(([, schema]) => schema["x-sent-as"] !== "text")
    .filter(([, schema]) => {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      return types.includes("number") || types.includes("integer");
    })
    .map(([name]) => name);
}

/** The `x-column-order` of an export row schema. */
export function exportColumns(schemaName: string): string[] {
  const schema = resolvePointer(loadOpenApiDocument(), `#/components/schemas/${schemaName}`) as
    JsonObject | undefined;
  const columns = schema?.["x-column-order"];
  if (!Array.isArray(columns)) throw new Error(`Schema ${schemaName} has no x-column-order in the contract`);
  return columns as string[];
}
