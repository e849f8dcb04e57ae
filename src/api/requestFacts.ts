import { CONTRACT_OPERATIONS, type ContractBody, type OperationId } from "./contractOperations";

type Row<Id extends OperationId> = Extract<(typeof CONTRACT_OPERATIONS)[number], { operationId: Id }>;

const rowOf = (id: OperationId) => CONTRACT_OPERATIONS.find((operation) => operation.operationId === id);

/** The operations whose JSON body has members with a `default` in the contract. */
type WithBodyDefaults = {
  [Id in OperationId]: Row<Id> extends { body: { defaults: object } } ? Id : never;
}[OperationId];

/**
 * What the service takes for each body member an operation's request leaves out (the contract's `default`s), typed
 * as the contract writes them, so a request the add-in fills in itself says the same as one it leaves to the
 * service.
 */
export function bodyDefaults<Id extends WithBodyDefaults>(
  id: Id,
): Row<Id> extends { body: { defaults: infer Defaults } } ? Defaults : never {
  const row = rowOf(id);
  const body = row && "body" in row ? row.body : undefined;
  if (!body || !("defaults" in body)) throw new Error(`${id} has no body defaults in the contract`);
  return body.defaults as never;
}

/** What the service takes for a query parameter of an operation that the request leaves out (its `default`). */
export function parameterDefault(id: OperationId, name: string): unknown {
  const row = rowOf(id);
  const parameter = row?.parameters.find((candidate) => candidate.name === name);
  if (!parameter || !("default" in parameter))
    throw new Error(`${id} has no default for ${name} in the contract`);
  return parameter.default;
}

/** The inclusive range the contract gives a number member of an operation's JSON body. */
export function bodyRange(id: OperationId, member: string): { minimum: number; maximum: number } {
  const row = rowOf(id);
  const limits = row && "body" in row ? (row.body as ContractBody).limits : undefined;
  const { minimum, maximum } = limits?.[member] ?? {};
  if (minimum === undefined || maximum === undefined)
    throw new Error(`${id} gives ${member} no minimum and maximum in the contract`);
  return { minimum, maximum };
}

/** The contract's maximum of a query parameter of an operation (such as the largest page it answers). */
export function parameterMaximum(id: OperationId, name: string): number {
  const row = rowOf(id);
  const parameter = row?.parameters.find((candidate) => candidate.name === name);
  if (!parameter || !("maximum" in parameter))
    throw new Error(`${id} gives ${name} no maximum in the contract`);
  return parameter.maximum;
}
