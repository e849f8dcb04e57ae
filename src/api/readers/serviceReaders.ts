import { operationById, type OperationId } from "../operations";
import type { operations } from "../schema";
import { NUMBER_FIELDS } from "./numberFields";
import type { CatalogueRecord } from "../fieldCatalogue";
import { catalogueFields } from "../fieldFacts";
import { FieldPath, listAt, numberAt, objectAt, recordsAt, textAt, type AnswerReader } from "./answerForm";
import { percentsAsFractions } from "./percentScale";

/** The JSON body of an operation's success answer, as the contract types it. */
type SuccessBody<Op extends keyof operations> = operations[Op]["responses"] extends infer R
  ? R extends { 200: { content: { "application/json": infer B } } }
    ? B
    : R extends { 201: { content: { "application/json": infer B } } }
      ? B
      : never
  : never;

/**
 * A reader that checks the parts of a body the add-in relies on (envelope, records, the fields it indexes by)
 * and passes the body on in the contract's type; anything else in it is shown as sent or ignored.
 */
function checked<Op extends OperationId>(
  operationId: Op,
  check: (body: Record<string, unknown>, at: FieldPath) => void,
): AnswerReader<SuccessBody<Op>> {
  return {
    endpoint: operationById(operationId).path,
    read(body, at) {
      check(objectAt(body, at), at);
      return body as SuccessBody<Op>;
    },
  };
}

/** `data` is a list of `{id, attributes}` records. */
function recordList(body: Record<string, unknown>, at: FieldPath): void {
  const data = at.member("data");
  recordsAt(body.data, data).forEach((record, index) => {
    textAt(record.id, data.member(index).member("id"));
    objectAt(record.attributes, data.member(index).member("attributes"));
  });
}

const CATALOGUE_RECORD_OF = {
  PropertyAttributes: "property",
  UnitAttributes: "unit",
  CompareMarketAttributes: "market",
} as const satisfies Readonly<Record<string, CatalogueRecord>>;

/** "+40.00", "-25", "$1,200.50": a signed amount the service writes as text (`x-sent-as: text`). */
const SIGNED_AMOUNT = /^\s*([+-]?)\$?(\d{1,3}(,\d{3})*|\d+)(\.\d+)?\s*$/;

function signedAmount(value: unknown): unknown {
  if (typeof value !== "string" || !SIGNED_AMOUNT.test(value)) return value;
  return Number(value.replace(/[$,\s+]/g, ""));
}

/**
 * A record list whose attributes follow a contract schema: each number field the record has is read as a
 * number, so one sent as text ("1,500.00") arrives as 1500 and one that is no number is refused; amounts the
 * contract says come as text ("+40.00") become numbers; percents become fractions (src/api/readers/percentScale.ts).
 */
function typedRecordList(schema: keyof typeof CATALOGUE_RECORD_OF) {
  const fields = NUMBER_FIELDS[schema] ?? [];
  const kind = CATALOGUE_RECORD_OF[schema];
  const textAmounts = Object.entries(catalogueFields(kind))
    .filter(([, facts]) => facts.sentAs === "text")
    .map(([field]) => field);
  return (body: Record<string, unknown>, at: FieldPath): void => {
    recordList(body, at);
    const records = listAt(body.data, at.member("data")).map((record, index) => {
      const attributesAt = at.member("data").member(index).member("attributes");
      const attributes = objectAt(objectAt(record, at).attributes, attributesAt);
      for (const field of fields)
        if (field in attributes) attributes[field] = numberAt(attributes[field], attributesAt.member(field));
      for (const field of textAmounts)
        if (field in attributes) attributes[field] = signedAmount(attributes[field]);
      return attributes;
    });
    percentsAsFractions(records, kind);
  };
}

/**
 * Pagination, when sent, is an object whose counts are numbers; the live service was seen answering without
 * `total_pages` (or without pagination), so paging (src/api/paging.ts) does not rely on either.
 */
function pagination(body: Record<string, unknown>, at: FieldPath): void {
  if (body.pagination === undefined || body.pagination === null) return;
  const page = objectAt(body.pagination, at.member("pagination"));
  for (const count of ["current_page", "total_pages", "total_count", "per_page"])
    if (page[count] !== undefined) numberAt(page[count], at.member("pagination").member(count));
}

function job(value: unknown, at: FieldPath): void {
  const record = objectAt(value, at);
  textAt(record.job_id, at.member("job_id"));
  textAt(record.status, at.member("status"));
}

export const accountsReader = checked("listAccounts", (body, at) => {
  const data = at.member("data");
  recordsAt(body.data, data).forEach((account, index) => {
    numberAt(account.id, data.member(index).member("id"));
    textAt(account.name, data.member(index).member("name"));
  });
  pagination(body, at);
});

export const compSetsReader = checked("listCompSets", recordList);
export const unitsReader = checked("listCompSetUnits", typedRecordList("UnitAttributes"));
export const bulkDetailsReader = checked("getBulkPropertyDetails", typedRecordList("PropertyAttributes"));
export const exploreMarketsReader = checked("exploreMarkets", (body, at) => {
  typedRecordList("CompareMarketAttributes")(body, at);
  listAt(body.data, at.member("data")).forEach((record, index) => {
    const attributesAt = at.member("data").member(index).member("attributes");
    numberAt(objectAt(objectAt(record, at).attributes, attributesAt).id, attributesAt.member("id"));
  });
});
export const geoSearchReader = checked("searchGeoBoundaries", recordList);
export const propertySearchReader = checked("searchProperties", (body, at) => {
  typedRecordList("PropertyAttributes")(body, at);
  if (body.pagination !== undefined) pagination(body, at);
});
export const lookupReader = checked("lookupProperties", (body, at) => {
  listAt(body.data, at.member("data")).forEach((id, index) => numberAt(id, at.member("data").member(index)));
  pagination(body, at);
});
export const narrativesReader = checked("getMarketNarratives", recordList);

/** Forecasts of a property or a boundary: `data.attributes.time_series` of `{date, values}`. */
export function forecastReader(operationId: "getPropertyForecasts" | "getGeoBoundaryForecasts") {
  return checked(operationId, (body, at) => {
    const attributesAt = at.member("data").member("attributes");
    const attributes = objectAt(objectAt(body.data, at.member("data")).attributes, attributesAt);
    const seriesAt = attributesAt.member("time_series");
    recordsAt(attributes.time_series, seriesAt).forEach((entry, index) => {
      textAt(entry.date, seriesAt.member(index).member("date"));
      objectAt(entry.values, seriesAt.member(index).member("values"));
    });
  });
}

export const jobListReader = checked("listBulkJobs", (body, at) => {
  listAt(body.jobs, at.member("jobs")).forEach((entry, index) => job(entry, at.member("jobs").member(index)));
  pagination(body, at);
});
export const submittedJobReader = checked("createBulkJob", (body, at) => job(body, at));
export const jobReader = checked("getBulkJob", (body, at) => job(body, at));
export const cancelledJobReader = checked("cancelBulkJob", (body, at) => job(body, at));
