/**
 * `npm start`: starts the sandbox service and the HTTPS dev server in the background, then sideloads the
 * add-in into desktop Excel where office-addin-debugging can (Windows, macOS). Elsewhere it prints how to
 * sideload into Excel on the web, and the preview: the add-in in a browser beside a stand-in grid. The
 * sandbox runs inside the preview process (`npm run preview`), which answers both the dev server's origin
 * and the preview's. `npm stop` ends what this started.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, openSync } from "node:fs";
import https from "node:https";
import path from "node:path";
import {
  forgetProcesses,
  isRunning,
  readProcesses,
  RUN_DIR,
  stopProcess,
  writeProcesses,
  type DevProcess,
} from "./devProcesses";

const root = path.resolve(__dirname, "..");
const SANDBOX_PORT = 4010;
const PREVIEW_PORT = 3100;
const DEV_SERVER_URL = "https://localhost:3000/taskpane.html";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function startInBackground(name: string, args: string[]): DevProcess {
  mkdirSync(RUN_DIR, { recursive: true });
  const log = path.join(RUN_DIR, `${name}.log`);
  const out = openSync(log, "w");
  const child = spawn(npm, args, { cwd: root, detached: true, stdio: ["ignore", out, out] });
  if (child.pid === undefined) throw new Error(`Could not start ${name}.`);
  child.unref();
  return { name, pid: child.pid, log };
}

/** Waits until `check` passes; fails early when the process it waits for has ended. */
async function waitFor(what: string, started: DevProcess, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    if (!isRunning(started.pid)) throw new Error(`${what} stopped while starting; see ${started.log}.`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s; see ${started.log}.`);
}

/** The dev server's certificate may not be trusted yet on this machine: only whether it answers matters here. */
function httpsAnswers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    https
      .get(url, { rejectUnauthorized: false }, (response) => {
        response.resume();
        resolve((response.statusCode ?? 500) < 500);
      })
      .on("error", () => resolve(false));
  });
}

async function httpAnswers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).status < 500;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const running = readProcesses().filter((entry) => isRunning(entry.pid));
  if (running.length > 0) {
    console.log(
      `Already running (${running.map((entry) => entry.name).join(", ")}). Run \`npm stop\` first.`,
    );
    return;
  }

  // Generates the localhost certificates offline; trusting the CA may need an administrator (see README).
  spawnSync(npm, ["exec", "--", "office-addin-dev-certs", "install"], { cwd: root, stdio: "ignore" });

  const sandbox = startInBackground("sandbox", [
    "run",
    "preview",
    "--",
    "--port",
    String(PREVIEW_PORT),
    "--sandbox-port",
    String(SANDBOX_PORT),
  ]);
  const devServer = startInBackground("dev-server", ["run", "dev-server"]);
  writeProcesses([sandbox, devServer]);

  try {
    const sandboxUrl = `http://127.0.0.1:${SANDBOX_PORT}/v1/accounts`;
    // The preview builds the add-in before it starts the sandbox.
    await waitFor("The sandbox", sandbox, () => httpAnswers(sandboxUrl), 180_000);
    await waitFor("The dev server", devServer, () => httpsAnswers(DEV_SERVER_URL), 180_000);
  } catch (error) {
    [sandbox, devServer].forEach(stopProcess);
    forgetProcesses();
    throw error;
  }

  console.log(`
Rent Market is running:
  add-in (HTTPS dev server)  ${DEV_SERVER_URL}
  sandbox service            http://127.0.0.1:${SANDBOX_PORT}
  preview (no Excel needed)  http://127.0.0.1:${PREVIEW_PORT}/
  logs                       ${path.relative(root, RUN_DIR)}/

Demo sign-ins for the sandbox (client id / secret):
  demo-base     / sandbox-secret-base      (base tier)
  demo-pro      / sandbox-secret-pro       (pro tier)
  demo-proplus  / sandbox-secret-proplus   (pro-plus tier)
`);

  if (process.platform === "win32" || process.platform === "darwin") {
    const sideload = spawnSync(
      npm,
      ["exec", "--", "office-addin-debugging", "start", "manifest.xml", "desktop"],
      {
        cwd: root,
        stdio: "inherit",
      },
    );
    if (sideload.status === 0) return;
    console.log("Sideloading into desktop Excel failed; use Excel on the web as below.");
  }
  console.log(`Desktop sideloading is not available on this platform. To use the add-in in Excel on the web:
  1. Open a workbook at https://excel.office.com (trust https://localhost:3000 in this browser first:
     open ${DEV_SERVER_URL} once and accept the certificate, or install ~/.office-addin-dev-certs/ca.crt).
  2. Home > Add-ins > More Add-ins > Upload My Add-in (or Insert > Add-ins > Upload My Add-in).
  3. Choose ${path.join(root, "manifest.xml")}.
  4. Open "Rent Market" on the Home tab, sign in with a demo client above, and type =RENT.ACCOUNTS() in a cell.
Or try it at once without Excel: http://127.0.0.1:${PREVIEW_PORT}/ (the pane beside a stand-in grid).
Run \`npm stop\` to stop everything.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
