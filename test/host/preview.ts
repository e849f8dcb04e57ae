/**
 * `npm run preview`: the add-in in a browser, without Excel. Serves the host page with the add-in beside a
 * grid, and a sandbox on port 4010 (the pane's default service URL) unless told otherwise.
 *
 *   npm run preview -- [--port 3100] [--sandbox-port 4010] [--job-time-scale 1] [--real-office-js]
 *
 * The sandbox's download origin sits at the sandbox port + 1 (4011), where the add-in's Content-Security-
 * Policy expects it, and the sandbox also answers the dev server's origin (https://localhost:3000), so the
 * same sandbox serves the add-in sideloaded from `npm start`. `--real-office-js` keeps the page's office.js
 * (from Microsoft's CDN: the browser needs the internet) in front of the stand-in, under the page's policy.
 */
import { parseArgs } from "node:util";
import { CLI_DEFAULT_JOB_TIME_SCALE } from "../../sandbox/cli/parseArguments";
import { startPreview } from "./previewServer";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "3100" },
      "sandbox-port": { type: "string", default: "4010" },
      // Export jobs take the live service's time, as from the sandbox's own command line (sandbox/README.md).
      "job-time-scale": { type: "string", default: String(CLI_DEFAULT_JOB_TIME_SCALE) },
      "real-office-js": { type: "boolean", default: false },
    },
  });
  const preview = await startPreview({
    port: Number(values.port),
    sandbox: {
      port: Number(values["sandbox-port"]),
      downloadPort: Number(values["sandbox-port"]) === 0 ? 0 : Number(values["sandbox-port"]) + 1,
      jobTimeScale: Number(values["job-time-scale"]),
    },
    realOfficeJs: values["real-office-js"],
  });
  console.log(`Rent Market preview: ${preview.url}`);
  console.log(`  sandbox: ${preview.sandbox.url} (sign in with demo-pro / sandbox-secret-pro)`);
  if (preview.sandbox.url !== "http://127.0.0.1:4010") {
    console.log(`  set the pane's Service URL to ${preview.sandbox.url} (under "Service settings")`);
  }
  console.log("Press Ctrl+C to stop.");
  const stop = () => {
    void preview.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
