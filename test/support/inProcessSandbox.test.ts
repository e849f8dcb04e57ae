/**
 * The in-process transport: what a fetch over fastify's `inject` keeps of fetch's behaviour, which the data
 * layer's and the functions' tests rely on when they reach the sandbox without a socket.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { buildInProcessSandbox, injectFetch } from "./inProcessSandbox";

const API = "http://api.in-process.invalid";
const FILES = "http://files.in-process.invalid";

let api: FastifyInstance;
let files: FastifyInstance;
let fetchOver: typeof fetch;
let releaseSlow: () => void;

beforeAll(async () => {
  api = Fastify();
  files = Fastify();
  api.get("/link", (_request, reply) => reply.redirect(`${FILES}/file?signed=1`, 302));
  api.get("/here", (_request, reply) => reply.redirect("/echo", 307));
  api.post("/created", (_request, reply) => reply.redirect("/echo", 303));
  api.all("/echo", async (request) => ({
    method: request.method,
    authorization: request.headers.authorization ?? null,
    body: request.body ?? null,
  }));
  api.get("/slow", () => new Promise((resolve) => (releaseSlow = () => resolve({ late: true }))));
  api.delete("/nothing", (_request, reply) => reply.code(204).send());
  files.get("/file", async (request) => ({ authorization: request.headers.authorization ?? null }));
  fetchOver = injectFetch(
    new Map([
      [API, api],
      [FILES, files],
    ]),
  );
});

afterAll(() => Promise.all([api.close(), files.close()]));

const bearer = { headers: { Authorization: "Bearer secret" } };

it("follows a redirect to the other origin without the Authorization header, as fetch does", async () => {
  const response = await fetchOver(`${API}/link`, bearer);
  expect(response.status).toBe(200);
  expect(response.url).toBe(`${FILES}/file?signed=1`);
  expect(await response.json()).toEqual({ authorization: null });
});

it("keeps the Authorization header on a redirect within the origin, and the method and body on a 307", async () => {
  const response = await fetchOver(`${API}/here`, bearer);
  expect(await response.json()).toEqual({ method: "GET", authorization: "Bearer secret", body: null });
});

it("turns a POST into a GET without its body on a 303", async () => {
  const response = await fetchOver(`${API}/created`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ a: 1 }),
  });
  expect(await response.json()).toEqual({ method: "GET", authorization: null, body: null });
});

it("hands the redirect itself back with redirect: manual", async () => {
  const response = await fetchOver(`${API}/link`, { ...bearer, redirect: "manual" });
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe(`${FILES}/file?signed=1`);
});

it("sends a body of any kind fetch takes, with the content type fetch gives it", async () => {
  const blob = new Blob([JSON.stringify({ a: "1" })], { type: "application/json" });
  const response = await fetchOver(`${API}/echo`, { method: "POST", body: blob });
  expect(await response.json()).toMatchObject({ method: "POST", body: { a: "1" } });
});

it("answers a 204 with no body", async () => {
  const response = await fetchOver(`${API}/nothing`, { method: "DELETE" });
  expect(response.status).toBe(204);
  expect(await response.text()).toBe("");
});

it("rejects at once with the signal's reason when the request is aborted, before the server answers", async () => {
  const controller = new AbortController();
  const pending = fetchOver(`${API}/slow`, { signal: controller.signal });
  controller.abort(new DOMException("stopped", "AbortError"));
  await expect(pending).rejects.toMatchObject({ name: "AbortError", message: "stopped" });
  releaseSlow();
});

it("refuses an origin it does not hold, rather than sending the request elsewhere", async () => {
  await expect(fetchOver("http://elsewhere.invalid/echo")).rejects.toThrow(/not an in-process sandbox/);
});

it("refuses as a closed port does once its sandbox is closed", async () => {
  const sandbox = await buildInProcessSandbox();
  const token = await sandbox.fetch(`${sandbox.url}/oauth/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: "demo-pro",
      client_secret: "x",
    }),
  });
  expect(token.status).toBe(401);
  await sandbox.close();
  await expect(sandbox.fetch(`${sandbox.url}/oauth/token`, { method: "POST" })).rejects.toThrow(TypeError);
});
