import { USAGE, parseArguments, type CliArguments } from "./cli/parseArguments";
import { DEMO_CLIENTS } from "./data/clients";
import { startSandbox } from "./server";

/** `tsx sandbox/main.ts`: runs the sandbox until SIGINT or SIGTERM. */
async function main(): Promise<void> {
  let parsed: CliArguments;
  try {
    parsed = parseArguments(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (parsed.help) {
    console.log(USAGE);
    return;
  }
  const sandbox = await startSandbox(parsed.options);
  const { options } = sandbox.context;
  console.log(`listening on ${sandbox.url}`);
  console.log(
    `token endpoint: POST ${sandbox.url}/oauth/token   data: ${sandbox.url}/v1/...   downloads: ${sandbox.downloadUrl}`,
  );
  console.log("demo credentials (client id / client secret / tier):");
  for (const client of DEMO_CLIENTS)
    console.log(`  ${client.clientId} / ${client.clientSecret} / ${client.tier}`);
  if (parsed.printManualTokens) {
    console.log("manual tokens (valid 30 days, this run only):");
    for (const client of DEMO_CLIENTS)
      console.log(
        `  ${client.clientId}: ${sandbox.context.tokens.issueManualToken(client.clientId).accessToken}`,
      );
  }
  console.log(
    `rate limit ${options.rateLimit} requests / ${options.rateLimitWindowSeconds} s per token; ` +
      `bulk export quota ${options.bulkExportQuota} properties per account; admin routes ${options.admin ? "on" : "off"}`,
  );
  console.log(
    `export jobs take ${options.jobTimeScale === 1 ? "the live service's time" : `${options.jobTimeScale} x the live service's time`}` +
      (options.jobStallReportType ? `; ${options.jobStallReportType} jobs never end` : ""),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the sandbox`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
