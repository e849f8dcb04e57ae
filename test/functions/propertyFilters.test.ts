import { PROPERTY_FILTER_OPTIONS, readPropertyFilters } from "../../src/functions/args/propertyFilters";
import { parsedContract } from "../support/parsedContract";

/** The contract as parsed from its YAML, so the options are checked against it and not against the generated lists. */
const contract = parsedContract();
const schemas = contract.components.schemas;
type Member = { type: string; items?: { $ref: string } };
const members = Object.entries(schemas.PropertyFilters.properties as Record<string, Member>);

/** A value the contract allows for a member: the first value of a list's enum, else a small number. */
function allowed(member: Member): unknown {
  if (member.type !== "array") return 3;
  const schema = member.items?.$ref.split("/").pop() ?? "";
  return schemas[schema].enum[0];
}

describe("the property filters the functions take as options", () => {
  it("are the members of the contract's PropertyFilters, named without brackets", () => {
    expect([...PROPERTY_FILTER_OPTIONS]).toEqual(members.map(([name]) => name.replace(/\[\]$/, "")));
  });

  it("read every member the contract lists into its contract name and shape", () => {
    const options = new Map(members.map(([name, member]) => [name.replace(/\[\]$/, ""), allowed(member)]));
    const expected = Object.fromEntries(
      members.map(([name, member]) => [name, member.type === "array" ? [allowed(member)] : allowed(member)]),
    );
    expect(readPropertyFilters(options)).toEqual(expected);
  });

  it("refuses a value outside a list member's enum with the values it takes", () => {
    expect(() => readPropertyFilters(new Map([["unified_status", "demolished"]]))).toThrow(/unified_status/);
    expect(readPropertyFilters(new Map())).toBeUndefined();
  });
});
