/** `npm stop`: ends the sandbox and dev server that `npm start` left running, and unloads the add-in. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { forgetProcesses, readProcesses, stopProcess } from "./devProcesses";

const root = path.resolve(__dirname, "..");
const processes = readProcesses();
if (processes.length === 0) console.log("Nothing started by `npm start` is running.");
for (const entry of processes) {
  console.log(
    stopProcess(entry) ? `Stopped ${entry.name} (pid ${entry.pid}).` : `${entry.name} had already ended.`,
  );
}
forgetProcesses();
if (process.platform === "win32" || process.platform === "darwin") {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  spawnSync(npm, ["exec", "--", "office-addin-debugging", "stop", "manifest.xml"], {
    cwd: root,
    stdio: "inherit",
  });
}
