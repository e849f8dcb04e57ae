import { parseArgs } from "node:util";
import { RATE_LIMIT_MODES } from "../auth/rateLimiter";
import { RATE_LIMIT_HEADER_FORMS } from "../faults/faultSettings";
import { parseBodyFieldRename } from "../http/renamedBodyFields";
import type { SandboxOptions } from "../options";
import { reportTypeValues } from "../../src/api/schema";
import { SANDBOX_VARIANTS } from "../variant";

export const CLI_DEFAULT_PORT = 4010;

/** From the command line jobs take the live service's time: someone trying the add-in meets real waits. */
export const CLI_DEFAULT_JOB_TIME_SCALE = 1;

export const USAGE = `Usage: tsx sandbox/main.ts [options]

Server
  --port <n>              API port (default ${CLI_DEFAULT_PORT}; 0 = any free port)
  --download-port <n>     port of the download origin for export files (default: the API port + 1)
  --host <addr>           interface to listen on (default 127.0.0.1)
  --cors-origin <url>     allowed browser origin; repeatable (default https://localhost:3000)
  --no-download-cors      the download origin sends no CORS headers (like plain object storage)
  --log                   log every request
Data
  --seed <n>              dataset seed (default 1)
  --properties <n>        number of synthetic properties (default 20000)
  --now <iso>             freeze the clock at this instant (default: real time)
  --variant <name>        answer form where the live service allows two: documented (floor_plans_by_bed_bath,
                          percents as fractions; default), alternate (floor_plans_by_bed, percents as points) or
                          examples (as the vendor's API examples: timestamped history, "$10", "... Metro Area")
Limits
  --token-lifetime <s>    client-credentials token lifetime in seconds (default 7200)
  --rate-limit <n>        requests per token per window (default 100)
  --rate-window <s>       rate-limit window in seconds (default 300)
  --rate-mode <mode>      fixed (a window per token, default) or rolling (the last window counts,
                          and a burst halves the limit for a window, as seen on the live service)
  --quota <n>             bulk export quota per account, in properties (default 1000000)
Jobs
  --job-delay <ms>        delay before the worker starts a submitted job (default 200)
  --job-max-rows <n>      exports with more rows fail with an error_message (default 2000000)
  --job-concurrency <n>   export jobs generating at once; the rest wait their turn (default 2)
  --job-time-scale <x>    share of the live service's job time a job takes: 1 = live-like (about 30 s
                          for one property-month, 5-10 min for ten properties over 13 months; default),
                          0.01 = a hundredth, 0 = done as soon as its file is written
  --job-stall <type>      jobs of this report type (property, units, floorplans) never end
  --export-dir <path>     where export files are written (default: a temporary directory)
  --webhook-secret <s>    key of the callback signature (default sandbox-webhook-secret)
Faults
  --latency <ms>          added delay on every API response
  --error-rate <0..1>     share of API requests answered 500
  --burst-429 <n>         answer the next n API requests with 429
  --drop-rate <0..1>      share of API requests whose connection is dropped
  --empty-403             answer 403s with an empty body (the live service sometimes does)
  --429-headers <form>    headers of every 429: seconds (the spec's, default), http-date
                          (Retry-After as a date) or none
  --no-total-pages        paged answers lack pagination.total_pages
  --rename-body-field <operationId:field=new>
                          expect a request body field under a new name (e.g. searchGeoBoundaries:query=q):
                          the contract's name then gets 400 "Unknown parameter: <field>"; repeatable
  --admin                 enable the /admin routes (faults, counters, clock, tokens, limits)
  --manual-tokens         print a 30-day manual token for each demo client
  --help                  print this text`;

export interface CliArguments {
  help: boolean;
  printManualTokens: boolean;
  options: Partial<SandboxOptions>;
}

/** Turns command-line flags into sandbox options; throws with a readable message on a bad value. */
export function parseArguments(argv: string[]): CliArguments {
  const text = { type: "string" } as const;
  const flag = { type: "boolean" } as const;
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: text,
      "download-port": text,
      host: text,
      "cors-origin": { type: "string", multiple: true },
      "no-download-cors": flag,
      log: flag,
      seed: text,
      properties: text,
      now: text,
      variant: text,
      "token-lifetime": text,
      "rate-limit": text,
      "rate-window": text,
      "rate-mode": text,
      quota: text,
      "job-delay": text,
      "job-max-rows": text,
      "job-concurrency": text,
      "job-time-scale": text,
      "job-stall": text,
      "export-dir": text,
      "webhook-secret": text,
      latency: text,
      "error-rate": text,
      "burst-429": text,
      "drop-rate": text,
      "empty-403": flag,
      "429-headers": text,
      "no-total-pages": flag,
      "rename-body-field": { type: "string", multiple: true },
      admin: flag,
      "manual-tokens": flag,
      help: flag,
    },
  });
  const integer = (name: string, min = 0): number | undefined => {
    const value = values[name as keyof typeof values];
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min)
      throw new Error(`--${name} must be a whole number >= ${min}`);
    return parsed;
  };
  const share = (name: string): number | undefined => {
    const value = values[name as keyof typeof values];
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!(parsed >= 0 && parsed <= 1)) throw new Error(`--${name} must be a number between 0 and 1`);
    return parsed;
  };
  if (values.now !== undefined && Number.isNaN(Date.parse(values.now)))
    throw new Error("--now must be an ISO 8601 instant");
  const oneOf = <T extends string>(name: string, allowed: readonly T[]): T | undefined => {
    const value = values[name as keyof typeof values];
    if (value === undefined) return undefined;
    if (!allowed.includes(value as T)) throw new Error(`--${name} must be one of ${allowed.join(", ")}`);
    return value as T;
  };
  const port = integer("port") ?? CLI_DEFAULT_PORT;
  const timeScale = values["job-time-scale"];
  if (timeScale !== undefined && !(Number(timeScale) >= 0 && timeScale.trim() !== ""))
    throw new Error("--job-time-scale must be a number >= 0");
  return {
    help: values.help === true,
    printManualTokens: values["manual-tokens"] === true,
    options: {
      port,
      // A fixed download origin (the API port + 1) so the add-in's Content-Security-Policy can name it.
      downloadPort: integer("download-port") ?? (port === 0 ? 0 : port + 1),
      host: values.host,
      corsOrigins: values["cors-origin"],
      downloadCors: values["no-download-cors"] ? false : undefined,
      logger: values.log,
      seed: integer("seed"),
      propertyCount: integer("properties", 1),
      now: values.now,
      variant: oneOf("variant", SANDBOX_VARIANTS),
      tokenLifetimeSeconds: integer("token-lifetime", 1),
      rateLimit: integer("rate-limit", 1),
      rateLimitWindowSeconds: integer("rate-window", 1),
      rateLimitMode: oneOf("rate-mode", RATE_LIMIT_MODES),
      bulkExportQuota: integer("quota"),
      jobStartDelayMs: integer("job-delay"),
      jobMaxRows: integer("job-max-rows", 1),
      jobConcurrency: integer("job-concurrency", 1),
      jobTimeScale: timeScale === undefined ? CLI_DEFAULT_JOB_TIME_SCALE : Number(timeScale),
      jobStallReportType: oneOf("job-stall", reportTypeValues),
      exportDirectory: values["export-dir"],
      webhookSecret: values["webhook-secret"],
      faults: {
        latencyMs: integer("latency") ?? 0,
        errorRate: share("error-rate") ?? 0,
        rateLimitBurst: integer("burst-429") ?? 0,
        dropRate: share("drop-rate") ?? 0,
        emptyForbiddenBodies: values["empty-403"] === true,
        rateLimitHeaders: oneOf("429-headers", RATE_LIMIT_HEADER_FORMS) ?? "seconds",
        omitTotalPages: values["no-total-pages"] === true,
      },
      renamedBodyFields: values["rename-body-field"]?.map(parseBodyFieldRename),
      admin: values.admin,
    },
  };
}
