/**
 * Deterministic pseudo-random numbers. Every generated value is a pure function of the dataset seed
 * and the identity of what it describes (a property id, a unit key, a day), so data can be computed
 * lazily, in any order, and always comes out the same.
 */

const HASH_START = 0x811c9dc5;

/** Mixes one more integer into a running hash (a murmur3-style step). */
export function mixIntoHash(hash: number, part: number): number {
  let value = Math.imul(part | 0, 0xcc9e2d51) ^ Math.floor(part / 0x100000000);
  value = Math.imul((value << 15) | (value >>> 17), 0x1b873593);
  hash ^= value;
  return Math.imul((hash << 13) | (hash >>> 19), 5) + 0xe6546b64;
}

/** A running hash as a 32-bit seed (the murmur3 finaliser). */
export function finishHash(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/**
 * The running hash of leading parts, for code that hashes the same parts followed by many different last
 * ones: `finishHash(mixIntoHash(hashPrefix(...parts), last))` equals `hashSeed(...parts, last)`.
 */
export function hashPrefix(...parts: number[]): number {
  let hash = HASH_START;
  for (let index = 0; index < parts.length; index++) hash = mixIntoHash(hash, parts[index] as number);
  return hash;
}

/** Mixes any number of integers into one 32-bit seed. */
export function hashSeed(...parts: number[]): number {
  return finishHash(hashPrefix(...parts));
}

/** A small, fast generator (mulberry32) with the helpers the data modules need. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static of(...parts: number[]): Random {
    return new Random(hashSeed(...parts));
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick() from an empty list");
    return item;
  }

  /** Picks by weight; weights need not sum to 1. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [item, weight] of entries) {
      roll -= weight;
      if (roll < 0) return item;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new Error("weighted() from an empty list");
    return last[0];
  }

  /** Roughly normal (sum of three uniforms), mean 0, standard deviation about 1. */
  gaussian(): number {
    return (this.next() + this.next() + this.next() - 1.5) * 2;
  }
}

/** 10 to the power of a few decimals: `round` runs for every figure of every listed unit of every day. */
const POWERS_OF_TEN = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

export function round(value: number, decimals: number): number {
  const factor = POWERS_OF_TEN[decimals] ?? 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Salts that keep the streams of different generators apart for the same id. */
export const SALT = {
  boundary: 1,
  property: 2,
  record: 3,
  units: 4,
  forecast: 5,
  compSets: 6,
  market: 7,
  history: 8,
} as const;
