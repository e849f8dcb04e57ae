import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../../sandbox/server";
import { SandboxClient } from "./sandboxClient";

/** Every test sandbox runs at a fixed instant, so dates and forecast windows are reproducible. */
export const FIXED_NOW = "2026-03-15T12:00:00.000Z";
export const TODAY = "2026-03-15";

export interface TestSandbox {
  sandbox: RunningSandbox;
  client: SandboxClient;
}

/** A sandbox on a free port with a frozen clock and jobs that wait for an explicit flush. */
export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({ port: 0, now: FIXED_NOW, jobStartDelayMs: 3_600_000, ...options });
  return { sandbox, client: new SandboxClient(sandbox) };
}

/** The demo accounts used across tests. */
export const ACCOUNT = { shared: 100, base: 101, pro: 102, proPlus: 103 } as const;
