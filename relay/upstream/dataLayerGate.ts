import { abortReason } from "../../src/data/abortableSleep";
import type { Gate } from "../../src/data/gate";

/**
 * The gate of the relay's data layer: it holds nothing back. The team gate (teamGate.ts) paces every request
 * to the service inside the upstream fetch (upstreamFetch.ts), where the call's operation, and so the people
 * whose reads it serves, is known; a second door in front of it would queue one person's backlog, first come
 * first served, before a colleague's turn. A 429's pause is the team's budget's: the upstream fetch puts it
 * there, and the team gate sits it out or refuses every waiting request at once.
 */
export const DATA_LAYER_GATE: Gate = {
  acquire: (signal) =>
    signal?.aborted ? Promise.reject(abortReason(signal)) : Promise.resolve(() => undefined),
  pauseFor: () => undefined,
};
