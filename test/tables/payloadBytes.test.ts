import { jsonByteLength, utf8ByteLength } from "../../src/tables/payloadBytes";

describe("request payload sizes", () => {
  it("counts UTF-8 bytes, as the request travels", () => {
    expect(utf8ByteLength("Rent 1850")).toBe(9);
    expect(utf8ByteLength("Résidences")).toBe(11);
    expect(utf8ByteLength("€")).toBe(3);
    expect(utf8ByteLength("🏠 home")).toBe(9);
    for (const text of ["plain", "Résidences « Le Parc »", "中文 🏠 mixed é"]) {
      expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, "utf8"));
    }
  });

  it("measures values as serialized JSON, escapes included", () => {
    const row = ['Unit "A"', 1850.5, true, "", "line\nbreak"];
    expect(jsonByteLength(row)).toBe(Buffer.byteLength(JSON.stringify(row), "utf8"));
    expect(jsonByteLength([[1, 2]])).toBe(7);
  });
});
