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
