/** "Did you mean ...?" for a mistyped field or metric name: the closest known name within a few edits. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 4)) ? best.name : undefined;
}

export function didYouMean(name: string, candidates: Iterable<string>): string {
  const closest = closestName(name, candidates);
  return closest ? ` Did you mean "${closest}"?` : "";
}

/** Plain words an underwriter types for a figure, and the words of the field names that hold it. */
const PLAIN_WORDS: Readonly<Record<string, readonly string[]>> = {
  occupancy: ["occupancy", "leased_percent"],
  occupied: ["occupancy", "leased_percent"],
  leased: ["leased", "occupancy"],
  vacancy: ["exposure"],
  exposure: ["exposure"],
  rent: ["rent"],
  rents: ["rent"],
  concession: ["concession"],
  concessions: ["concession"],
  growth: ["growth"],
  supply: ["supply", "delivered", "construction"],
  deliveries: ["delivered", "deliveries"],
  income: ["income"],
  population: ["population"],
  cap: ["cap"],
  price: ["price"],
  size: ["sq", "size", "sqft"],
};

const hasPart = (name: string, part: string) => `_${name}_`.includes(`_${part}_`);

/**
 * Field names that hold what plain words ("occupancy", "rent", "concessions") mean: names having, for every word
 * typed, one of its field words; those with a word's first meaning first, then the shortest (the headline
 * figure before its variants), at most `limit`.
 */
export function namesForWords(typed: string, candidates: Iterable<string>, limit = 3): string[] {
  const words = typed
    .toLowerCase()
    .split(/[\s_,]+/)
    .filter(Boolean);
  if (words.length === 0) return [];
  const wanted = words.map((word) => PLAIN_WORDS[word] ?? [word]);
  const rank = (name: string) => wanted.filter((options) => !hasPart(name, options[0] ?? "")).length;
  return [...candidates]
    .map((candidate) => candidate.toLowerCase())
    .filter((name) => wanted.every((options) => options.some((option) => hasPart(name, option))))
    .sort((a, b) => rank(a) - rank(b) || a.length - b.length || a.localeCompare(b))
    .slice(0, limit);
}

/** A hint for a name that is not a field: the closest spelling, else the fields its plain words mean. */
export function suggestionFor(name: string, candidates: Iterable<string>): string {
  const list = [...candidates];
  const closest = closestName(name, list);
  if (closest) return ` Did you mean "${closest}"?`;
  const named = namesForWords(name, list);
  return named.length === 0 ? "" : ` Did you mean ${named.map((candidate) => `"${candidate}"`).join(", ")}?`;
}
