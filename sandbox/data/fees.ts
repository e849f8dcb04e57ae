import type { components } from "../../src/api/schema";
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

/** A fee as the live market survey describes it: a range with words, or a bare amount. */
export type SurveyFee = { title: string; description: string; min: number; max: number } | number;

/**
 * The market survey's `fees_and_deposits`: an object keyed by fee kind (api-notes, "Observed on the live
 * service"), each a range with a title or a bare number; kinds the property does not charge are left out.
 */
export function feesAndDeposits(
  dataset: Dataset,
  property: PropertyCore,
): Partial<Record<components["schemas"]["FeeKind"], SurveyFee>> {
  const random = Random.of(dataset.seed, SALT.record, property.id, 98);
  const amountOf = (name: string) => feesOf(dataset, property).find((fee) => fee.name === name)?.amount ?? 0;
  const range = (title: string, description: string, min: number) => ({
    title,
    description,
    min,
    max: min + random.int(0, 3) * 25,
  });
  const kinds: Partial<Record<components["schemas"]["FeeKind"], SurveyFee>> = {
    admin: range("Admin fee", "One-time administration fee at move-in", random.int(100, 300)),
    application: amountOf("Application fee"),
    deposit: range("Security deposit", "Refundable, depends on credit", amountOf("Security deposit")),
    parking_fees: range("Parking", "Monthly, per space", amountOf("Parking")),
    pet_deposit: random.int(200, 500),
    pet_fee: random.int(150, 400),
    pet_rent: amountOf("Pet rent"),
  };
  if (random.chance(0.5)) kinds.parking_garage = range("Garage", "Monthly, reserved", random.int(75, 200));
  if (random.chance(0.5)) kinds.parking_surface_lot = random.int(0, 50);
  if (random.chance(0.3)) kinds.parking_carport = random.int(25, 75);
  if (random.chance(0.4)) kinds.storage = range("Storage", "Monthly, per unit", random.int(30, 90));
  return kinds;
}
