/**
 * Faults that happen at a point in a run rather than from its start: "after the Nth request the sandbox
 * sees, do this". Requests are counted as the sandbox's HTTP server receives them.
 */
import type { RunningSandbox } from "../../../sandbox/server";

export interface ScheduledFault {
  afterRequests: number;
  apply: (sandbox: RunningSandbox) => void;
}

/** Arms the schedule; returns a function that disarms what has not fired yet. */
export function scheduleFaults(sandbox: RunningSandbox, faults: ScheduledFault[]): () => void {
  let seen = 0;
  const pending = [...faults].sort((a, b) => a.afterRequests - b.afterRequests);
  const onRequest = () => {
    seen += 1;
    while (pending[0] && pending[0].afterRequests <= seen) {
      pending.shift()?.apply(sandbox);
    }
  };
  sandbox.app.server.on("request", onRequest);
  return () => {
    sandbox.app.server.off("request", onRequest);
  };
}
