import { CONTRACT_OPERATIONS } from "../contractOperations";
import { ApiError } from "../errors";
import type { TypedAnswer } from "../client";

/**
 * An endpoint (a contract path) in words, by its operation's summary (the read where several share the path): a
 * cell or the pane shows the message to a person, who is never shown a service path.
 */
function inWords(endpoint: string): string {
  const operations = CONTRACT_OPERATIONS.filter((operation) => operation.path === endpoint);
  const operation = operations.find((candidate) => candidate.method === "GET") ?? operations[0];
  return operation?.summary ?? "an answer of the service";
}

/** The error of an answer the add-in cannot read: the one kind, naming the operation and what was wrong. */
export function unexpectedAnswer(endpoint: string, what: string): ApiError {
  return new ApiError(
    "unexpected_answer",
    `The service answered in an unexpected form: ${what} (${inWords(endpoint)}). Check the service URL, or report it.`,
  );
}

/** Reads one endpoint's body into the form the add-in works with, or throws unexpectedAnswer. */
export interface AnswerReader<T> {
  readonly endpoint: string;
  read(body: unknown, at: FieldPath): T;
}

/** Where in a body a value sits, for the message: `data[3].attributes.id`. */
export class FieldPath {
  constructor(
    readonly endpoint: string,
    private readonly path: string = "",
  ) {}

  member(name: string | number): FieldPath {
    const step = typeof name === "number" ? `[${name}]` : this.path === "" ? name : `.${name}`;
    return new FieldPath(this.endpoint, `${this.path}${step}`);
  }

  fail(expected: string, value: unknown): never {
    const where = this.path === "" ? "the answer" : this.path;
    throw unexpectedAnswer(this.endpoint, `${where} should be ${expected} but is ${describe(value)}`);
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string")
    return `the text "${value.length > 40 ? `${value.slice(0, 40)}...` : value}"`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

/**
 * A typed call whose body goes through a reader: a 2xx answer comes back in the reader's form, a body that is
 * not JSON or not in a form the reader accepts becomes the unexpected-answer error. Errors pass untouched.
 */
export async function readAnswer<R>(
  reader: AnswerReader<R>,
  answer: Promise<TypedAnswer<unknown>>,
): Promise<TypedAnswer<R>> {
  let settled: TypedAnswer<unknown>;
  try {
    settled = await answer;
  } catch (error) {
    if (error instanceof SyntaxError) throw unexpectedAnswer(reader.endpoint, "the body is not JSON");
    throw error;
  }
  if (!settled.response.ok) return { ...settled, data: undefined };
  return { ...settled, data: reader.read(settled.data, new FieldPath(reader.endpoint)) };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function objectAt(value: unknown, at: FieldPath): Record<string, unknown> {
  return isRecord(value) ? value : at.fail("an object", value);
}

export function listAt(value: unknown, at: FieldPath): unknown[] {
  return Array.isArray(value) ? value : at.fail("a list", value);
}

/** Each element of a list that must hold objects. */
export function recordsAt(value: unknown, at: FieldPath): Record<string, unknown>[] {
  return listAt(value, at).map((item, index) => objectAt(item, at.member(index)));
}

/** Numbers written as text with thousands separators ("1,500.00") or a currency sign ("$1,500"). */
const NUMBER_TEXT = /^\s*-?\$?\d{1,3}(,\d{3})*(\.\d+)?\s*$|^\s*-?\$?\d+(\.\d+)?\s*$/;

/** A number where the contract says number: a number, a number written as text, or null when absent. */
export function numberAt(value: unknown, at: FieldPath): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && NUMBER_TEXT.test(value)) return Number(value.replace(/[$,\s]/g, ""));
  return at.fail("a number", value);
}

/** An id the service may send as a number or as numeric text. */
export function idAt(value: unknown, at: FieldPath): number {
  const id = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === "number" && Number.isInteger(id) ? id : at.fail("an id", value);
}

export function textAt(value: unknown, at: FieldPath): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return at.fail("text", value);
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A day the service writes as a date ("2024-09-10") or as an instant within it: the vendor's examples date
 * history points at the end of their day in UTC ("2024-09-10T23:59:59.999Z"), which is that UTC day.
 */
export function dayAt(value: unknown, at: FieldPath): string {
  const text = textAt(value, at);
  if (ISO_DAY.test(text)) return text;
  const ms = ISO_INSTANT.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(ms) ? at.fail("a date", value) : new Date(ms).toISOString().slice(0, 10);
}
