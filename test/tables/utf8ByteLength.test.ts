import { utf8ByteLength } from "../../src/tables/payloadBytes";

describe("utf8ByteLength at the edges of UTF-8's ranges", () => {
  it("counts one byte up to U+007F, two from U+0080 to U+07FF, three from U+0800", () => {
    for (const [code, bytes] of [
      [0x7f, 1],
      [0x80, 2],
      [0x7ff, 2],
      [0x800, 3],
      [0xd7ff, 3],
      [0xe000, 3],
      [0xffff, 3],
    ] as const) {
      const text = `a${String.fromCharCode(code)}b`;
      expect([code, utf8ByteLength(text)]).toEqual([code, bytes + 2]);
      expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, "utf8"));
    }
  });

  it("counts four bytes for a character outside the basic plane, whatever its high surrogate", () => {
    for (const character of ["\u{10000}", "😀", "\u{10FFFF}", "\u{FFFFF}"]) {
      expect(utf8ByteLength(`x${character}`)).toBe(5);
    }
  });
});
