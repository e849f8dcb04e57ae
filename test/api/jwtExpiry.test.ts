import { jwtExpiryMs } from "../../src/api/jwtExpiry";

/** base64url of a JSON text, as a JWT carries it: no padding, `-` and `_` for `+` and `/`. */
function base64url(text: string): string {
  return Buffer.from(text, "utf8")
    .toString("base64")
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function jwt(claims: object): string {
  return `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(JSON.stringify(claims))}.signature`;
}

describe("jwtExpiryMs", () => {
  it("reads exp from a payload whose base64url text holds both `-` and `_`", () => {
    // Both claims make bytes whose base64 has `+` and `/` (so base64url has `-` and `_`); found by search below.
    let claims: { exp: number; sub: string } | undefined;
    for (let i = 0; i < 10_000 && !claims; i++) {
      const candidate = { exp: 1_900_000_000, sub: `~~?>${i}??~` };
      const payload = jwt(candidate).split(".")[1] ?? "";
      if (payload.includes("-") && payload.includes("_")) claims = candidate;
    }
    expect(claims).toBeDefined();
    expect(jwtExpiryMs(jwt(claims!))).toBe(1_900_000_000_000);
  });

  it("reads exp from a payload that needs padding of one and of two characters", () => {
    const lengths = new Set<number>();
    for (const sub of ["a", "ab", "abc"]) {
      const token = jwt({ exp: 1_800_000_000, sub });
      lengths.add((token.split(".")[1] ?? "").length % 4);
      expect(jwtExpiryMs(token)).toBe(1_800_000_000_000);
    }
    expect(lengths).toEqual(new Set([0, 2, 3]));
  });

  it("gives no expiry for a token that is not three parts, or carries no numeric exp", () => {
    expect(jwtExpiryMs("opaque-token")).toBeUndefined();
    expect(jwtExpiryMs(`${jwt({ exp: 1 })}.extra`)).toBeUndefined();
    expect(jwtExpiryMs(jwt({ exp: "1900000000" }))).toBeUndefined();
    expect(jwtExpiryMs(jwt({ sub: "x" }))).toBeUndefined();
  });
});
