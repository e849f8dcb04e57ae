import type { FastifyReply, FastifyRequest } from "fastify";
import { inputOf, type OperationHandlers, type SandboxContext } from "../context";
import { compSetsOf, type CompSet } from "../data/compSets";
import {
  bucketPlans,
  floorPlanRows,
  listingsOverDays,
  planEntries,
  type FloorPlanRow,
} from "../data/floorPlanReport";
import { marketSurvey } from "../data/marketSurvey";
import { dayNumber, isoDate } from "../data/propertyRecord";
import { unitEnvelope, unitTextsOf } from "../data/unitRecord";
import { listedUnits, type ListedUnit } from "../data/units";
import { sendBadRequest, sendNotFound } from "../http/errors";
import { shapeOf } from "../variant";

/** Collection days kept by the sandbox (daily collection). */
export const COLLECTION_RETENTION_DAYS = 90;

/** A comma-separated filter value (already checked by the contract's pattern) as a set of numbers. */
function numberList(value: unknown): Set<number> | undefined {
  return typeof value === "string" ? new Set(value.split(",").map(Number)) : undefined;
}

function inRange<T extends number | string>(value: T, low: unknown, high: unknown): boolean {
  return (low === undefined || value >= (low as T)) && (high === undefined || value <= (high as T));
}

/** Finds the comp set of the path (the request pipeline has checked that the caller may see it). */
function compSetFor(
  context: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
): { compSet: CompSet } | { refused: FastifyReply } {
  const id = inputOf(request).params.comp_set_id as number;
  const compSet = compSetsOf(context.dataset()).find((candidate) => candidate.id === id);
  if (!compSet) return { refused: sendNotFound(reply, `Comp set ${id} does not exist`) };
  return { compSet };
}

/** The subject's average rent and size per bedroom count: what the trucomp differentials compare with. */
function subjectAverages(
  units: ListedUnit[],
  subjectIds: number[],
): Map<number, { rent: number; sqFt: number }> {
  const groups = new Map<number, { rent: number; sqFt: number; count: number }>();
  for (const unit of units) {
    if (!subjectIds.includes(unit.property.id)) continue;
    const group = groups.get(unit.spec.plan.bedrooms) ?? { rent: 0, sqFt: 0, count: 0 };
    group.rent += unit.rent;
    group.sqFt += unit.spec.sqFt;
    group.count += 1;
    groups.set(unit.spec.plan.bedrooms, group);
  }
  return new Map(
    [...groups].map(([bedrooms, group]) => [
      bedrooms,
      { rent: group.rent / group.count, sqFt: group.sqFt / group.count },
    ]),
  );
}

/** The comp set endpoints: list, market survey, units and floor plans. */
export function compSetHandlers(
  context: SandboxContext,
): Pick<
  OperationHandlers,
  "listCompSets" | "getMarketSurvey" | "listCompSetUnits" | "listCompSetFloorPlans"
> {
  const shape = shapeOf(context.options.variant);
  const propertiesOf = (compSet: CompSet) =>
    compSet.propertyIds
      .map((id) => context.dataset().propertyById.get(id))
      .filter((property) => property !== undefined);

  return {
    listCompSets: (request) => {
      const accountId = inputOf(request).params.account_id as number;
      const dataset = context.dataset();
      const addressOf = (id: number) => {
        const property = dataset.propertyById.get(id);
        return property
          ? [
              {
                address: property.address,
                city: property.city,
                state: property.state,
                zip_code: property.zip,
              },
            ]
          : [];
      };
      return {
        data: compSetsOf(dataset)
          .filter((compSet) => compSet.accountId === accountId)
          .map((compSet) => ({
            id: String(compSet.id),
            type: "comp_set",
            attributes: {
              name: compSet.name,
              account_id: compSet.accountId,
              property_ids: compSet.propertyIds,
              subject_property_ids: compSet.subjectIds,
              addresses: compSet.propertyIds.flatMap(addressOf),
              owned_property_addresses: compSet.subjectIds.flatMap(addressOf),
              min_floorplan: 0,
              max_floorplan: 3,
              category: compSet.category,
              market_survey: true,
              custom_property: false,
              value_add: compSet.valueAdd,
              image: null,
              show_recommendations_link: compSet.valueAdd,
            },
          })),
      };
    },

    getMarketSurvey: (request, reply) => {
      const found = compSetFor(context, request, reply);
      if ("refused" in found) return found.refused;
      const today = dayNumber(context.clock.today());
      const bedrooms = numberList(inputOf(request).query["filter[bedroom_count]"]);
      const survey = marketSurvey(
        context.dataset(),
        found.compSet,
        today,
        today,
        shape,
        unitTextsOf(shape, context.clock.now()),
        bedrooms,
      );
      return {
        data: {
          id: found.compSet.id,
          type: "market_survey",
          attributes: {
            comp_set_id: found.compSet.id,
            collected_at: isoDate(today),
            market_survey_items: survey.items,
            comp_average_column: survey.average,
          },
        },
      };
    },

    listCompSetUnits: (request, reply) => {
      const found = compSetFor(context, request, reply);
      if ("refused" in found) return found.refused;
      const { compSet } = found;
      const query = inputOf(request).query;
      const today = dayNumber(context.clock.today());
      const dataset = context.dataset();
      const units = propertiesOf(compSet).flatMap((property) => listedUnits(dataset, property, today, today));
      const averages = subjectAverages(units, compSet.subjectIds);
      const texts = unitTextsOf(shape, context.clock.now());
      const bedrooms = numberList(query["filter[bedroom_count]"]);
      const bathrooms = numberList(query["filter[bathroom_count]"]);
      const propertyIds = numberList(query["filter[property_ids]"]);
      const styles =
        typeof query["filter[unit_styles]"] === "string"
          ? new Set(query["filter[unit_styles]"].split(","))
          : undefined;
      const matching = units.filter(
        (unit) =>
          (!bedrooms || bedrooms.has(unit.spec.plan.bedrooms)) &&
          (!bathrooms || bathrooms.has(unit.spec.plan.bathrooms)) &&
          (!propertyIds || propertyIds.has(unit.property.id)) &&
          (!styles || styles.has(unit.spec.style)) &&
          inRange(unit.spec.sqFt, query["filter[sq_ft_gte]"], query["filter[sq_ft_lte]"]) &&
          inRange(unit.rent, query["filter[rent_gte]"], query["filter[rent_lte]"]) &&
          inRange(
            unit.dateAvailable,
            query["filter[date_available_gte]"],
            query["filter[date_available_lte]"],
          ) &&
          inRange(unit.property.yearBuilt, query["filter[year_built_gte]"], query["filter[year_built_lte]"]),
      );
      return {
        data: matching.map((unit) =>
          unitEnvelope(dataset, unit, compSet.subjectIds.includes(unit.property.id), averages, texts),
        ),
      };
    },

    listCompSetFloorPlans: (request, reply) => {
      const found = compSetFor(context, request, reply);
      if ("refused" in found) return found.refused;
      const { compSet } = found;
      const query = inputOf(request).query;
      const today = dayNumber(context.clock.today());
      const gte = query["filter[collected_at_gte]"] as string | undefined;
      const lte = query["filter[collected_at_lte]"] as string | undefined;
      if (gte && lte && gte > lte) {
        return sendBadRequest(reply, "filter[collected_at_gte] must not be after filter[collected_at_lte]");
      }
      const oldest = today - COLLECTION_RETENTION_DAYS + 1;
      const first =
        gte === undefined && lte === undefined ? today : Math.max(gte ? dayNumber(gte) : oldest, oldest);
      const last = Math.min(lte ? dayNumber(lte) : today, today);
      const availableFrom = query["filter[date_available_gte]"];
      const availableTo = query["filter[date_available_lte]"];
      const availability =
        availableFrom === undefined && availableTo === undefined
          ? undefined
          : (date: string) => inRange(date, availableFrom, availableTo);
      const dataset = context.dataset();
      const days: number[] = [];
      for (let day = first; day <= last; day++) days.push(day);
      const listedOn = listingsOverDays(dataset, today);
      const rows: FloorPlanRow[] = days.flatMap((day) =>
        propertiesOf(compSet).flatMap((property) =>
          floorPlanRows(
            dataset,
            property,
            compSet.subjectIds.includes(property.id),
            day,
            today,
            availability,
            listedOn,
          ),
        ),
      );
      return {
        data: {
          id: compSet.id,
          type: "floorplan",
          attributes: {
            comp_set_id: compSet.id,
            collected_at_dates: days.map(isoDate),
            [shape.floorPlanBuckets]: bucketPlans(planEntries(rows, shape), shape.floorPlanBuckets),
          },
        },
      };
    },
  };
}
