import { checkConnection, type ConnectionReport, type ProbeReport } from "../api/connectionCheck";
import type { ServiceConfig } from "../api/config";
import type { Credentials } from "../api/tokens";
import type { Session } from "../session/session";
import { configOf, credentialsOf, type SignInForm } from "./signInController";

export interface ConnectionCheckRun {
  readonly config: ServiceConfig;
  /** Whether the signed-in session's token was used (no token request) or the form's credentials. */
  readonly usedSession: boolean;
  readonly report: ConnectionReport;
}

/**
 * "Check connection": the service and credentials of the signed-in session, or, before sign-in, those typed
 * in the form (so a person can learn what a service accepts before signing in to it). The check's requests go
 * straight to the service, not through the data layer: they must see the raw answers.
 */
export class ConnectionCheckController {
  constructor(
    private readonly session: Session,
    private readonly fetchImpl?: typeof fetch,
  ) {}

  /** Where the check will go, known before any request so the pane can say it first. */
  target(form: SignInForm): ServiceConfig {
    return this.session.current?.client.config ?? configOf(form);
  }

  async run(
    form: SignInForm,
    options: { onProbe?: (probe: ProbeReport) => void; signal?: AbortSignal } = {},
  ): Promise<ConnectionCheckRun> {
    const signedIn = this.session.current;
    const config = this.target(form);
    const credentials: Credentials = signedIn
      ? { kind: "manual", accessToken: await signedIn.client.accessToken() }
      : credentialsOf(form);
    const report = await checkConnection({ config, credentials, fetch: this.fetchImpl, ...options });
    return { config, usedSession: signedIn !== undefined, report };
  }
}
