/** The relay's command line: the daily posting time its cache serves by, from --posting-time or the environment. */
import { parseRelayArguments } from "../../relay/cli/relayArguments";

const SERVICE = ["--service-url", "https://data.example/api"];

it("takes the posting time from --posting-time, else from the environment's default, else leaves the 07:00 default", () => {
  expect(parseRelayArguments([...SERVICE, "--posting-time", "08:15"], "store", "09:00")).toMatchObject({
    kind: "start",
    postingTime: "08:15",
  });
  expect(parseRelayArguments(SERVICE, "store", "09:00")).toMatchObject({ postingTime: "09:00" });
  expect(parseRelayArguments(SERVICE, "store")).not.toHaveProperty("postingTime");
});

it("refuses a posting time that is not HH:MM before the relay starts", () => {
  expect(() => parseRelayArguments([...SERVICE, "--posting-time", "7am"], "store")).toThrow(/HH:MM/);
});

it("takes the download hosts from --download-origin (repeated) or the environment, as origins, and refuses a non-URL", () => {
  expect(
    parseRelayArguments(
      [...SERVICE, "--download-origin", "https://files.example/x", "--download-origin", "https://b.example"],
      "store",
    ),
  ).toMatchObject({ downloadOrigins: ["https://files.example", "https://b.example"] });
  expect(
    parseRelayArguments(SERVICE, "store", undefined, {
      downloadOrigins: "https://a.example, https://b.example:8443",
    }),
  ).toMatchObject({ downloadOrigins: ["https://a.example", "https://b.example:8443"] });
  expect(parseRelayArguments(SERVICE, "store")).toMatchObject({ downloadOrigins: [] });
  expect(() => parseRelayArguments([...SERVICE, "--download-origin", "files.example"], "store")).toThrow(
    /--download-origin/,
  );
});

it("takes the ports from the options, else from the environment (RELAY_PORT, RELAY_OPS_PORT), else 8080 and 9090", () => {
  expect(parseRelayArguments(SERVICE, "store")).toMatchObject({
    port: 8080,
    opsPort: 9090,
    opsHost: "127.0.0.1",
  });
  expect(parseRelayArguments(SERVICE, "store", undefined, { port: "8100", opsPort: "9100" })).toMatchObject({
    port: 8100,
    opsPort: 9100,
  });
  expect(
    parseRelayArguments([...SERVICE, "--ops-port", "9200"], "store", undefined, { opsPort: "9100" }),
  ).toMatchObject({ opsPort: 9200 });
  expect(() => parseRelayArguments([...SERVICE, "--ops-port", "99999"], "store")).toThrow(/--ops-port/);
});
