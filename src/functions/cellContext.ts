import { ApiError } from "../api/errors";
import type { AnswerTrail } from "../data/answerTrail";
import type { DataLayer } from "../data/dataLayer";
import type { RefreshPass } from "../data/refreshPass";
import { session } from "../session/session";
import { letGoOfPendingCells, type CellSignal } from "./cellCall";
import { currentRefresh } from "./freshness";
import { readOptionalId } from "./args/scalars";

/** What every data function needs: the sign-in's data layer, the account it acts for, and call options. */
export interface CellContext {
  data: DataLayer;
  accountId: number;
  /**
   * The call options to hand to the data layer: this cell's signal, and the pane's refresh it belongs to. The
   * signal is made when the data layer first reads it, which it does only when the answer is not in memory.
   */
  call: { accountId: number; readonly signal: AbortSignal; refresh?: RefreshPass; trail?: AnswerTrail };
}

// A sign-out must not turn the cells it interrupts into errors: they are let go of, still calculating.
session.onChange((state) => {
  if (!state) letGoOfPendingCells();
});

/** A class rather than an object literal with a getter: one shape for every cell, no closure per cell. */
class CellCallOptions {
  constructor(
    readonly accountId: number,
    private readonly cellSignal: CellSignal,
    readonly refresh: RefreshPass | undefined,
  ) {}

  get signal(): AbortSignal {
    return this.cellSignal.signal;
  }

  get trail(): AnswerTrail | undefined {
    return this.cellSignal.trail;
  }
}

/** The account chosen in the pane, unless the formula names one (which the sign-in must be allowed to use). */
export function cellContext(cellSignal: CellSignal, account?: unknown): CellContext {
  const state = session.requireSignedIn();
  const named = readOptionalId(account, "account");
  if (named !== undefined && !state.accounts.some((candidate) => candidate.id === named)) {
    throw new ApiError(
      "forbidden",
      `Account ${named} is not one your sign-in may act for (see RENT.ACCOUNTS()).`,
    );
  }
  const accountId = named ?? state.accountId;
  return { data: state.data, accountId, call: new CellCallOptions(accountId, cellSignal, currentRefresh()) };
}
