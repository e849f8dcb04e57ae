import { DEMO_CLIENTS } from "../../sandbox/data/clients";
import { startTestSandbox, type TestSandbox } from "./support/fixtures";

/** The sandbox's request log (fastify's JSON lines), read while it answers token and data requests. */
describe("the request log", () => {
  const lines: string[] = [];
  let t: TestSandbox;
  const pro = DEMO_CLIENTS.find((client) => client.clientId === "demo-pro");
  if (!pro) throw new Error("no demo-pro client");
  const wrongSecret = "guessed-secret-7Qx2";

  beforeAll(async () => {
    t = await startTestSandbox({ logger: { stream: { write: (line) => lines.push(line) } } });
  });

  afterAll(async () => {
    await t.sandbox.close();
  });

  it("never holds a client secret or an access token, whatever the token request looks like", async () => {
    const form = `grant_type=client_credentials&client_id=${pro.clientId}&client_secret=${pro.clientSecret}`;
    const json = {
      grant_type: "client_credentials",
      client_id: pro.clientId,
      client_secret: pro.clientSecret,
    };
    const tokens: string[] = [];
    const asForm = await t.client.request<{ access_token: string }>("POST", "/oauth/token", {
      rawBody: form,
      contentType: "application/x-www-form-urlencoded",
    });
    const asJson = await t.client.request<{ access_token: string }>("POST", "/oauth/token", { json });
    expect([asForm.status, asJson.status]).toEqual([200, 200]);
    tokens.push(asForm.body.access_token, asJson.body.access_token);
    const refused = [
      await t.client.request("POST", "/oauth/token", { json: { ...json, client_secret: wrongSecret } }),
      await t.client.request("POST", "/oauth/token", {
        rawBody: `${form.replace(pro.clientSecret, wrongSecret)}&scope=everything`,
        contentType: "application/x-www-form-urlencoded",
        outsideContract: true,
      }),
      // Malformed JSON: parser messages quote the text around the fault.
      await t.client.request("POST", "/oauth/token", {
        rawBody: JSON.stringify(json).replace(/}$/, ""),
        outsideContract: true,
      }),
      await t.client.request("POST", "/oauth/token", {
        rawBody: `{"client_secret": "${wrongSecret}", "grant_type": }`,
        outsideContract: true,
      }),
    ];
    for (const response of refused) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.text).not.toContain(wrongSecret);
      expect(response.text).not.toContain(pro.clientSecret);
    }
    const accounts = await t.client.request("GET", "/v1/accounts", { token: tokens[0] });
    expect(accounts.status).toBe(200);

    const log = lines.join("");
    // The log is on, and it saw these requests.
    expect(lines.filter((line) => line.includes('"url":"/oauth/token"')).length).toBeGreaterThanOrEqual(6);
    for (const secret of [pro.clientSecret, wrongSecret, ...tokens]) expect(log).not.toContain(secret);
  });
});
