import type { Dataset } from "./dataset";
import type { PropertyCore } from "./properties";
import { Random, SALT } from "./random";

export interface Fee {
  name: string;
  amount: number;
  frequency: "monthly" | "one_time";
  required: boolean;
}

/** The fees and deposits a property charges; required monthly fees make up all-in pricing (v1.15.0). */
export function feesOf(dataset: Dataset, property: PropertyCore): Fee[] {
  const random = Random.of(dataset.seed, SALT.record, property.id, 99);
  const fees: Fee[] = [
    { name: "Trash", amount: random.int(8, 25), frequency: "monthly", required: true },
    { name: "Pest control", amount: random.int(3, 9), frequency: "monthly", required: true },
    { name: "Parking", amount: random.int(35, 175), frequency: "monthly", required: false },
    { name: "Pet rent", amount: random.int(25, 60), frequency: "monthly", required: false },
    { name: "Application fee", amount: random.int(25, 95), frequency: "one_time", required: true },
    { name: "Security deposit", amount: random.int(300, 1200), frequency: "one_time", required: true },
  ];
  if (random.chance(0.5))
    fees.splice(2, 0, {
      name: "Amenity fee",
      amount: random.int(15, 60),
      frequency: "monthly",
      required: true,
    });
  return fees;
}

export function requiredMonthlyFees(fees: Fee[]): number {
  return fees
    .filter((fee) => fee.required && fee.frequency === "monthly")
    .reduce((sum, fee) => sum + fee.amount, 0);
}
