import { ACCOUNTS } from "./clients";
import type { Dataset } from "./dataset";
import { distanceMiles } from "./propertyFilters";
import type { PropertyCore } from "./properties";
import { Random, SALT } from "./random";

export interface CompSet {
  id: number;
  accountId: number;
  name: string;
  subjectIds: number[];
  /** Subject properties first, then the comps nearest to the first subject. */
  propertyIds: number[];
  category: string;
  valueAdd: boolean;
}

/** How many comp sets each demo account has. */
const COMP_SETS_PER_ACCOUNT: Record<number, number> = { 100: 2, 101: 2, 102: 3, 103: 2 };
const COMPS_PER_SET = 7;

function surveyable(property: PropertyCore): boolean {
  return property.unifiedStatus === "stabilized" && property.askingRent !== null;
}

const memo = new WeakMap<Dataset, CompSet[]>();

/** The demo accounts' comp sets: a subject property and its nearest surveyable neighbours in one submarket. */
export function compSetsOf(dataset: Dataset): CompSet[] {
  const existing = memo.get(dataset);
  if (existing) return existing;
  const sets: CompSet[] = [];
  for (const account of ACCOUNTS) {
    for (let n = 1; n <= (COMP_SETS_PER_ACCOUNT[account.id] ?? 0); n++) {
      const random = Random.of(dataset.seed, SALT.compSets, account.id, n);
      const candidates = dataset.properties.filter(surveyable);
      const subject = random.pick(candidates);
      const neighbours = (dataset.propertiesByBoundary.get(subject.submarketId) ?? [])
        .filter((property) => property.id !== subject.id && surveyable(property))
        .map((property) => ({
          property,
          distance: distanceMiles(subject.latitude, subject.longitude, property.latitude, property.longitude),
        }))
        .sort((a, b) => a.distance - b.distance || a.property.id - b.property.id)
        .slice(0, COMPS_PER_SET)
        .map((entry) => entry.property.id);
      sets.push({
        id: account.id * 100 + n,
        accountId: account.id,
        name: `${subject.name} comps`,
        subjectIds: [subject.id],
        propertyIds: [subject.id, ...neighbours],
        category: random.pick(["Competitive", "Lease-up", "Acquisition"]),
        valueAdd: random.chance(0.3),
      });
    }
  }
  memo.set(dataset, sets);
  return sets;
}
