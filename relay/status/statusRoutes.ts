import type { FastifyInstance } from "fastify";
import { keyChecker } from "../routes/authenticate";
import type { RelayStore } from "../store/relayStore";
import type { TeamGate } from "../upstream/teamGate";
import type { RelayStats } from "./relayStats";

/** The status page: a form for the admin key, and the figures of GET /relay/status drawn as tables. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'">
<title>Rent Market relay: status</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:50em}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}#error{color:#a00}</style>
</head>
<body>
<h1>Team relay status</h1>
<form id="key-form"><label>Admin key <input id="admin-key" type="password" autocomplete="off" size="60"></label> <button>Show</button></form>
<p id="error" role="alert"></p>
<div id="figures"></div>
<script src="/relay/status.js"></script>
</body>
</html>`;

const SCRIPT = `
const form = document.getElementById("key-form");
const keyInput = document.getElementById("admin-key");
const figures = document.getElementById("figures");
const errorLine = document.getElementById("error");
function table(title, rows) {
  const section = document.createElement("section");
  const heading = document.createElement("h2");
  heading.textContent = title;
  const grid = document.createElement("table");
  for (const [name, value] of rows) {
    const row = grid.insertRow();
    row.insertCell().textContent = name;
    row.insertCell().textContent = String(value);
  }
  if (rows.length === 0) grid.insertRow().insertCell().textContent = "none yet";
  section.append(heading, grid);
  return section;
}
async function show() {
  errorLine.textContent = "";
  const response = await fetch("/relay/status", { headers: { Authorization: "Bearer " + keyInput.value } });
  const body = await response.json();
  if (!response.ok) { errorLine.textContent = body.message || "HTTP " + response.status; return; }
  const u = body.upstream;
  figures.replaceChildren(
    table("Upstream", [["store", body.store], ["spent this window", u.spentThisWindow + " of " + u.limit + " per " + u.windowSeconds + " s"], ["sent in total", u.total], ["answers shared between instances", u.shared], ["429 received", u.rateLimited]]),
    table("Cache", [["hits", body.cache.hits], ["misses", body.cache.misses], ["hit rate", (body.cache.hitRate * 100).toFixed(1) + " %"]]),
    table("Quota used per account", Object.entries(body.quotaUsedByAccount)),
    table("Requests per user", Object.entries(body.requestsByUser)),
    table("Upstream requests per user", Object.entries(u.byUser)),
    table("Upstream requests per operation", Object.entries(u.byEndpoint)),
    table("Waiting at the gate", Object.entries(body.waitingByUser)),
  );
}
form.addEventListener("submit", (event) => { event.preventDefault(); show().catch((error) => { errorLine.textContent = String(error); }); });
`;

export function registerStatusRoutes(
  app: FastifyInstance,
  store: RelayStore,
  stats: RelayStats,
  gate: TeamGate,
): void {
  app.get("/relay/status", { preHandler: keyChecker(store.users, { admin: true }) }, async () =>
    stats.snapshot(store.description, gate.waiting()),
  );
  app.get("/relay/", async (_, reply) => reply.type("text/html; charset=utf-8").send(PAGE));
  app.get("/relay/status.js", async (_, reply) => reply.type("text/javascript; charset=utf-8").send(SCRIPT));
}
