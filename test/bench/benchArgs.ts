/** What the benchmark scripts share: reading their command-line options and summarising timings. */

/** The value after `--name` on the command line, if given. */
export function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

/** The value below which `fraction` of the values lie (nearest rank); NaN for none. */
export function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}
