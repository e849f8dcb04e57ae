/**
 * Draws the add-in's icon (a white house with a rising bar chart on Excel green) at the sizes the manifest
 * names, as PNG files in assets/. Run with `npx tsx scripts/make-icons.ts` after changing the drawing.
 */
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

type Rgb = [number, number, number];
const GREEN: Rgb = [16, 124, 65];
const WHITE: Rgb = [255, 255, 255];

/** Each shape says whether a point of the unit square is inside it; later shapes paint over earlier ones. */
type Shape = { colour: Rgb; inside: (x: number, y: number) => boolean };

const roundedSquare = (x: number, y: number): boolean => {
  const r = 0.18;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const rect = (x0: number, y0: number, x1: number, y1: number) => (x: number, y: number) =>
  x >= x0 && x <= x1 && y >= y0 && y <= y1;
const roof = (x: number, y: number): boolean =>
  y >= 0.16 && y <= 0.5 && Math.abs(x - 0.5) <= (y - 0.16) * 1.0;

const shapes: Shape[] = [
  { colour: GREEN, inside: roundedSquare },
  { colour: WHITE, inside: roof },
  { colour: WHITE, inside: rect(0.24, 0.48, 0.76, 0.84) },
  { colour: GREEN, inside: rect(0.32, 0.68, 0.42, 0.78) },
  { colour: GREEN, inside: rect(0.45, 0.6, 0.55, 0.78) },
  { colour: GREEN, inside: rect(0.58, 0.52, 0.68, 0.78) },
];

function pixel(px: number, py: number, size: number): [number, number, number, number] {
  const samples = 4;
  let r = 0;
  let g = 0;
  let b = 0;
  let a = 0;
  for (let sy = 0; sy < samples; sy++) {
    for (let sx = 0; sx < samples; sx++) {
      const x = (px + (sx + 0.5) / samples) / size;
      const y = (py + (sy + 0.5) / samples) / size;
      const top = shapes.filter((shape) => shape.inside(x, y)).at(-1);
      if (!top) continue;
      r += top.colour[0];
      g += top.colour[1];
      b += top.colour[2];
      a += 1;
    }
  }
  if (a === 0) return [0, 0, 0, 0];
  return [Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((255 * a) / samples ** 2)];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) rows.push(...pixel(x, y, size));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

for (const size of [16, 32, 64, 80]) writeFileSync(`assets/icon-${size}.png`, png(size));
