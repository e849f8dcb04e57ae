/**
 * Who waits for which upstream call. The add-in's batchers merge several people's reads into one call, and that
 * call is sent from whichever request opened the batch; the team gate must still let it out on the turn of any
 * person whose own read it serves, or a colleague's one read would wait behind the opener's whole backlog. It
 * is charged to nobody else: a call joins a person's queue only while that person's read waits for an item it
 * carries (the same operation, account, target and variant), and leaves it when their read ends.
 */
import type { OperationRequest } from "../../src/api/operations";
import { splitByRow } from "../../src/data/batchedEndpoints";
import { canonicalJson } from "../../src/data/cacheKey";
import type { GateTicket } from "./teamGate";

/** What a batched read asks for, or a call carries: one kind of call (account, target, variant) and its items. */
export interface Wanted {
  /** Calls of one family answer the same question for different items; it ends with the account id. */
  family: string;
  /** The items (property or boundary ids, forecast series) of a call that carries a list; undefined for a whole call. */
  items?: string[];
}

/**
 * What a batched request asks for or carries, read by its row in one form for both: a person's request as it
 * arrives and the call the rows send are requests of the same operation. Undefined for a request no row makes.
 */
export function carried(request: OperationRequest | undefined): Wanted | undefined {
  const split = request && splitByRow(request);
  if (!split) return undefined;
  const { row, params, items } = split;
  return {
    family: `${row.operation.operationId} ${canonicalJson(params)} ${request.accountId}`,
    items: items.map(row.itemId),
  };
}

/** Whether a call carries something a read waits for. */
function serves(call: Wanted, read: Wanted): boolean {
  if (call.family !== read.family) return false;
  if (!call.items || !read.items) return true;
  const carriedItems = new Set(call.items);
  return read.items.some((item) => carriedItems.has(item));
}

interface Interest extends Wanted {
  person: string;
  /** Leaves the queues of the calls this read joined. */
  leaves: (() => void)[];
}

interface Call extends Wanted {
  ticket: GateTicket;
}

export class Interests {
  private readonly interests = new Set<Interest>();
  private readonly calls = new Set<Call>();

  /**
   * Runs a batched read of `person`'s, known to wait for `wanted` until it settles: every call waiting at the gate
   * that carries an item of it, now or later, waits in their queue too, until the read ends.
   */
  async during<T>(person: string, wanted: Wanted, read: () => Promise<T>): Promise<T> {
    const interest: Interest = { person, ...wanted, leaves: [] };
    this.interests.add(interest);
    for (const call of this.calls) if (serves(call, interest)) interest.leaves.push(call.ticket.join(person));
    try {
      return await read();
    } finally {
      this.interests.delete(interest);
      for (const leave of interest.leaves) leave();
    }
  }

  /** The people whose reads wait for an item `call` carries (undefined: a call no batched row makes). */
  peopleServedBy(call: Wanted | undefined): string[] {
    if (!call) return [];
    const people = new Set<string>();
    for (const interest of this.interests) if (serves(call, interest)) people.add(interest.person);
    return [...people];
  }

  /**
   * A call carrying `call` waits at the gate with `ticket`: it joins the queue of everyone whose read waits for
   * one of its items, now or until it is let out. Returns what to call once it has been let out (or refused).
   */
  waitingCall(call: Wanted | undefined, ticket: GateTicket): () => void {
    if (!call) return () => undefined;
    const entry: Call = { ...call, ticket };
    this.calls.add(entry);
    for (const interest of this.interests)
      if (serves(call, interest)) interest.leaves.push(ticket.join(interest.person));
    return () => this.calls.delete(entry);
  }
}
