/**
 * Options that are members of a request: a query parameter or a JSON body member of an operation, as the
 * contract types it (src/api/contractOperations.ts). A function offers an operation's members as its name/value
 * options and reads each by its contract type, so a member the contract adds is an option with no list to edit.
 * The functions' help text names the same members (scripts/functionHelp.ts).
 */
import type { ContractBody } from "../../api/contractOperations";
import { operationById, type OperationId } from "../../api/operations";
import { ArgumentError } from "../cellErrors";
import { readDate } from "./excelDates";
import type { OptionValues } from "./options";
import { describe, isBlank, isEmptyArgument, readChoice, readNumber, readText } from "./scalars";

/** One member of a request as the contract types it. */
export interface ContractMember {
  readonly name: string;
  readonly type?: string;
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: unknown;
  /** What a number means (the contract's `x-unit`), e.g. miles. */
  readonly unit?: string;
}

/** Text the add-in sends in capitals, whatever case a formula wrote it in (a state code: "tx" is TX). */
const UPPER_CASED: ReadonlySet<string> = new Set(["state"]);

/** The members of an operation's request: its query parameters, then its JSON body's members, in contract order. */
export function requestMembers(id: OperationId): ContractMember[] {
  const row = operationById(id);
  const query = row.parameters.filter((parameter) => parameter.in === "query");
  const body: ContractBody | undefined = row.body;
  const members = (body?.properties ?? []).map((name) => ({
    name,
    ...body?.types[name],
    ...body?.limits?.[name],
    ...(body?.defaults && name in body.defaults ? { default: body.defaults[name] } : {}),
  }));
  return [...query, ...members];
}

/** One member of an operation's request (a query parameter or a body member). */
export function requestMember(id: OperationId, name: string): ContractMember {
  const member = requestMembers(id).find((candidate) => candidate.name === name);
  if (!member) throw new Error(`The contract's ${id} takes no ${name}`);
  return member;
}

/** Whether the add-in has a reader for a member of this type (see readMember). */
function readable(member: ContractMember): boolean {
  return member.enum !== undefined || ["integer", "number", "string"].includes(member.type ?? "");
}

/**
 * The members of an operation's request a function offers as options: all but `without` (those the add-in
 * fills itself, or takes from another argument). A member of a type no option can hold fails here, when the
 * module loads (in every test), rather than being left out unnoticed.
 */
export function optionMembers(id: OperationId, without: readonly string[]): ContractMember[] {
  const offered = requestMembers(id).filter((member) => !without.includes(member.name));
  const unreadable = offered.filter((member) => !readable(member)).map((member) => member.name);
  if (unreadable.length > 0)
    throw new Error(`${id}: no option reader for ${unreadable.join(", ")}; leave them out or add one`);
  return offered;
}

function readWhole(value: unknown, member: ContractMember): number {
  const number = readNumber(value, member.name);
  const { minimum = -Infinity, maximum = Infinity } = member;
  if (Number.isInteger(number) && number >= minimum && number <= maximum) return number;
  const range =
    member.minimum !== undefined && member.maximum !== undefined
      ? ` from ${member.minimum} to ${member.maximum}`
      : member.minimum !== undefined
        ? ` of at least ${member.minimum}`
        : member.maximum !== undefined
          ? ` of at most ${member.maximum}`
          : "";
  throw new ArgumentError(`${member.name} must be a whole number${range}, not ${describe(value)}.`);
}

/** One option's value, read by its member's contract type. */
function readMember(value: unknown, member: ContractMember): string | number {
  if (member.enum) return readChoice(value, member.name, member.enum as readonly string[]);
  if (member.type === "integer") return readWhole(value, member);
  if (member.type === "number") return readNumber(value, member.name);
  if (member.format === "date") return readDate(value, member.name);
  const text = readText(value, member.name);
  return UPPER_CASED.has(member.name) ? text.toUpperCase() : text;
}

/**
 * Whether an option row gives its member a value. An empty value cell reaches a function as 0 from desktop Excel
 * builds before Microsoft's fix (office-js #4702; later builds pass null, as Excel on the web does): where 0 is
 * no value of the member (text, a choice, a date) it reads as empty, so `state` left empty is no filter rather
 * than the state "0". A number keeps 0, which those builds cannot tell from an empty cell.
 */
function givenFor(member: ContractMember, value: unknown): boolean {
  const numeric = !member.enum && (member.type === "integer" || member.type === "number");
  return !(numeric ? isBlank(value) : isEmptyArgument(value));
}

/** The given options among `members`, each read by its contract type, under the contract's names. */
export function readMembers(
  options: OptionValues,
  members: readonly ContractMember[],
): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const member of members) {
    const value = options.get(member.name);
    if (!givenFor(member, value)) continue;
    values[member.name] = readMember(value, member);
  }
  return values;
}
