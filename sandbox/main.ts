import { USAGE, parseArguments } from "./cli/parseArguments";
import { DEMO_CLIENTS } from "./data/clients";
import { startSandbox } from "./server";

/** `tsx sandbox/main.ts`: runs the sandbox until SIGINT or SIGTERM. */
async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseArguments>;
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
  console.log(`listening on ${sandbox.url}`);
  console.log(`token endpoint: POST ${sandbox.url}/oauth/token   data: ${sandbox.url}/v1/...`);
  console.log("demo credentials (client id / client secret / tier):");
  for (const client of DEMO_CLIENTS)
    console.log(`  ${client.clientId} / ${client.clientSecret} / ${client.tier}`);

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
