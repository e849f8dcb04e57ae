/**
 * `npm run check-service -- --url U [--token-url T] --client-id ID [--client-secret S] [--json]`: one small
 * request per endpoint family against a service (the live one or a sandbox), reporting what answered, in
 * which shape, with which rate-limit headers, and the service's own message for a refusal. The secret is
 * better given as RENT_CLIENT_SECRET (a command line is visible to other users of the machine); an access
 * token as --access-token or RENT_ACCESS_TOKEN replaces the client credentials. Nothing secret is printed.
 * Exit status: 0 when every family asked answered, 1 when one failed, 2 for bad arguments.
 */
import { parseArgs } from "node:util";
import { checkConnection, checkNotice, probeLine, reportLines } from "../src/api/connectionCheck";
import { defaultTokenUrl, normaliseConfig } from "../src/api/config";
import type { Credentials } from "../src/api/tokens";

const USAGE = `Usage: npm run check-service -- --url <service URL> [--token-url <URL>] --client-id <id> [--client-secret <secret>] [--json]
       npm run check-service -- --url <service URL> --access-token <token> [--json]
  --url            the service's base URL (the part before /v1), e.g. https://data.apartmentiq.io/apartmentiq/api
  --token-url      the OAuth token endpoint (default: <origin of --url>/oauth/token)
  --client-id      client id of the client-credentials sign-in (or RENT_CLIENT_ID)
  --client-secret  its secret; better set RENT_CLIENT_SECRET instead
  --access-token   a token created in the service's web application (or RENT_ACCESS_TOKEN)
  --json           print the report as JSON instead of lines`;

function credentialsFrom(values: Record<string, string | boolean | undefined>): Credentials {
  const text = (name: string, environment: string): string | undefined => {
    const value = values[name] ?? process.env[environment];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const accessToken = text("access-token", "RENT_ACCESS_TOKEN");
  const clientId = text("client-id", "RENT_CLIENT_ID");
  const clientSecret = text("client-secret", "RENT_CLIENT_SECRET");
  if (clientId && clientSecret) return { kind: "client", clientId, clientSecret };
  if (accessToken) return { kind: "manual", accessToken };
  if (clientId) throw new Error("No client secret: set RENT_CLIENT_SECRET (or pass --client-secret).");
  throw new Error("No credentials: pass --client-id with RENT_CLIENT_SECRET, or --access-token.");
}

async function main(): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      options: {
        url: { type: "string" },
        "token-url": { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        "access-token": { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let config;
  let credentials: Credentials;
  try {
    if (typeof values.url !== "string") throw new Error("--url is required.");
    const tokenUrl =
      typeof values["token-url"] === "string" ? values["token-url"] : defaultTokenUrl(values.url);
    config = normaliseConfig({ serviceUrl: values.url, tokenUrl });
    credentials = credentialsFrom(values);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }

  const asJson = values.json === true;
  if (!asJson) console.log(checkNotice(config.serviceUrl));
  const report = await checkConnection({
    config,
    credentials,
    onProbe: asJson ? undefined : (probe) => console.log(probeLine(probe)),
  });
  if (asJson) console.log(JSON.stringify(report, null, 2));
  else for (const line of reportLines(report).slice(report.probes.length)) console.log(line);
  const failed = report.probes.some(
    (probe) => probe.outcome === "refused" || probe.outcome === "unreachable",
  );
  return failed ? 1 : 0;
}

void main().then((code) => {
  process.exitCode = code;
});
