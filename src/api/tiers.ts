import { tierValues, type components } from "./schema";

/** An access tier of the contract (`Tier`): what `x-required-tier` and `x-tier` name. */
export type Tier = components["schemas"]["Tier"];

/** Whether a caller of tier `actual` may do or see what needs `required`: the contract lists its tiers lowest first. */
export function tierAtLeast(actual: Tier, required: Tier): boolean {
  return tierValues.indexOf(actual) >= tierValues.indexOf(required);
}
