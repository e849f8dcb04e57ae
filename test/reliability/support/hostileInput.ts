/**
 * fast-check generators of malformed and hostile input for an HTTP API: path segments, query strings, JSON
 * bodies, raw bodies and Authorization headers such as a careless or malicious caller would send.
 */
import fc from "fast-check";

/** Property names that break careless object handling (prototype pollution, shadowed built-ins). */
const TRICKY_NAMES = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];

/** Text that has broken parsers, routers and log lines before. */
const TRICKY_TEXT = [
  "",
  " ",
  "-1",
  "0",
  "1e309",
  "NaN",
  "Infinity",
  "9007199254740993",
  "99999999999999999999999999",
  "0x10",
  "1.5",
  "true",
  "null",
  "[]",
  "{}",
  "../../etc/passwd",
  "..%2F..%2F",
  "%00",
  "%",
  "%E0%A4%A",
  "%uD800",
  "\u0000",
  "\uD800",
  "\u202E",
  "😀",
  "<script>alert(1)</script>",
  "' OR '1'='1",
  "${jndi:ldap://x}",
  "a".repeat(10_000),
];

/** Percent-encodes any string, lone surrogates included (encodeURIComponent throws on them). */
export function percentEncode(text: string): string {
  return Array.from(Buffer.from(text, "utf8"), (byte) =>
    /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
  ).join("");
}

/** Code points below the surrogates; the ones above them follow on, shifted down over the gap. */
const SURROGATES = { first: 0xd800, count: 0x800 };

/**
 * One code point of any plane, surrogates aside: what fast-check's `unit: "binary"` draws (the same index
 * over the same ranges, so the same values and shrinks), with an inverse that does not first build
 * fast-check's map of all 1.1 million code points (seconds of CPU in every file that imports this one).
 */
const anyCodePoint = fc.nat({ max: 0x10ffff - SURROGATES.count }).map(
  (index) => String.fromCodePoint(index < SURROGATES.first ? index : index + SURROGATES.count),
  (value) => {
    const point = typeof value === "string" ? value.codePointAt(0) : undefined;
    const isOne = point !== undefined && String.fromCodePoint(point) === value;
    if (!isOne || (point >= SURROGATES.first && point < SURROGATES.first + SURROGATES.count))
      throw new Error("not one code point outside the surrogates");
    return point < SURROGATES.first ? point : point - SURROGATES.count;
  },
);

export const hostileText = fc.oneof(
  fc.constantFrom(...TRICKY_TEXT, ...TRICKY_NAMES),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: anyCodePoint, maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
);

/** A path segment as it goes into a URL: usually encoded, sometimes raw (malformed escapes included). */
export const hostileSegment = fc.oneof(
  hostileText.map(percentEncode),
  fc.constantFrom("%", "%E0%A4%A", "%00", "..", ".", "%2e%2e", "a%2Fb", "%FF%FE"),
);

/** A query string: known parameter names and arbitrary ones, repeated names and bracketed names. */
export function hostileQuery(knownNames: string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    fc.constantFrom(...knownNames, ...TRICKY_NAMES, "account_id[]", "filter[bedroom_count]", "a[b][c]"),
    fc.string({ minLength: 1, maxLength: 12 }),
  );
  const pair = fc
    .tuple(name, hostileText)
    .map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`);
  const raw = fc.constantFrom("&&&", "=", "a=%", "a=%E0%A4%A", "account_id=1&account_id=2", "a[=1", "=x");
  return fc.array(fc.oneof(pair, raw), { maxLength: 6 }).map((parts) => parts.join("&"));
}

/** JSON with hostile members: wrong types, tricky names, deep nesting, long strings and big numbers. */
export function hostileJson(knownNames: string[]): fc.Arbitrary<unknown> {
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    hostileText,
    fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 0, 1e308, -0, 2 ** 31),
  );
  const members = fc.dictionary(
    fc.oneof(fc.constantFrom(...knownNames, ...TRICKY_NAMES), fc.string({ maxLength: 10 })),
    value,
    { maxKeys: 6 },
  );
  return fc.oneof(members, fc.jsonValue({ maxDepth: 4 }));
}

/** A raw body and a short name for it: fast-check prints the name, not 100 KB of brackets. */
export interface RawBody {
  name: string;
  text: string;
}

function rawBody(name: string, text: string): RawBody {
  return { name, text, [fc.toStringMethod]: () => name } as RawBody;
}

/**
 * Bodies that are not the JSON they claim to be, or JSON no server should recurse through. Nesting far past
 * what a recursive walk survives (about 2,000 levels once overflowed the sandbox's validator).
 */
const DEEP = 20_000;
export const hostileRawBody = fc.constantFrom(
  rawBody("truncated object", '{"account_id": 1,'),
  rawBody("lone brace", "{"),
  rawBody("100,000 open brackets", "[".repeat(100_000)),
  rawBody(`arrays nested ${DEEP} deep`, `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`),
  rawBody(`objects nested ${DEEP} deep`, `{"a":${'{"a":'.repeat(DEEP)}1${"}".repeat(DEEP)}}`),
  rawBody(
    "prototype pollution",
    '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}',
  ),
  rawBody("control characters", "\u0000\u0001\u0002"),
  rawBody("null", "null"),
  rawBody("a bare string", '"just a string"'),
  rawBody("an overflowing number", "1e999999"),
  rawBody("a duplicated member", '{"account_id": 1, "account_id": "two"}'),
  rawBody("a byte order mark", "\uFEFF{}"),
);

export const hostileContentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "",
  "application/json, text/html",
);

/** Authorization headers a client should never send (fetch accepts only ASCII header values). */
export const hostileAuthorization = fc.oneof(
  fc.constantFrom(
    "Bearer",
    "Bearer ",
    "bearer x",
    "Basic ZGVtbzpzZWNyZXQ=",
    "Bearer " + "a".repeat(8_000),
    "Token abc",
  ),
  fc.string({ unit: fc.constantFrom(..."abcXYZ019-_.~+/= "), maxLength: 60 }).map((text) => `Bearer ${text}`),
);
