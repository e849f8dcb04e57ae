import { parseArgs } from "node:util";
import type { SandboxOptions } from "../options";

export const CLI_DEFAULT_PORT = 4010;

export const USAGE = `Usage: tsx sandbox/main.ts [options]

  --port <n>             API port (default ${CLI_DEFAULT_PORT}; 0 = any free port)
  --host <addr>          interface to listen on (default 127.0.0.1)
  --seed <n>             dataset seed (default 1)
  --properties <n>       number of synthetic properties (default 20000)
  --cors-origin <url>    allowed browser origin; repeatable (default https://localhost:3000)
  --token-lifetime <s>   client-credentials token lifetime in seconds (default 7200)
  --now <iso>            freeze the clock at this instant (default: real time)
  --rate-limit <n>       requests per token per window (default 100)
  --rate-window <s>      rate-limit window in seconds (default 300)
  --admin                enable the /admin routes (fault control, counters, clock, manual tokens)
  --log                  log every request
  --help                 print this text`;

/** Turns command-line flags into sandbox options; throws with a readable message on a bad value. */
export function parseArguments(argv: string[]): { help: boolean; options: Partial<SandboxOptions> } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      seed: { type: "string" },
      properties: { type: "string" },
      "cors-origin": { type: "string", multiple: true },
      "token-lifetime": { type: "string" },
      now: { type: "string" },
      "rate-limit": { type: "string" },
      "rate-window": { type: "string" },
      admin: { type: "boolean" },
      log: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  const integer = (flag: string, value: string | undefined, min = 0): number | undefined => {
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min) throw new Error(`--${flag} must be an integer >= ${min}`);
    return parsed;
  };
  return {
    help: values.help === true,
    options: {
      port: integer("port", values.port) ?? CLI_DEFAULT_PORT,
      host: values.host,
      seed: integer("seed", values.seed),
      propertyCount: integer("properties", values.properties, 1),
      corsOrigins: values["cors-origin"],
      tokenLifetimeSeconds: integer("token-lifetime", values["token-lifetime"], 1),
      now: values.now,
      rateLimit: integer("rate-limit", values["rate-limit"], 1),
      rateLimitWindowSeconds: integer("rate-window", values["rate-window"], 1),
      admin: values.admin,
      logger: values.log,
    },
  };
}
