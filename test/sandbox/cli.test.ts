import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArguments } from "../../sandbox/cli/parseArguments";
import { DEMO_CLIENTS } from "../../sandbox/data/clients";

const ROOT = path.resolve(__dirname, "../..");

describe("command-line options", () => {
  it("turns flags into sandbox options", () => {
    const { options } = parseArguments([
      "--port",
      "4020",
      "--rate-limit",
      "10",
      "--rate-window",
      "60",
      "--latency",
      "50",
      "--error-rate",
      "0.1",
      "--admin",
      "--no-download-cors",
      "--cors-origin",
      "https://a.example",
      "--cors-origin",
      "https://b.example",
    ]);
    expect(options).toMatchObject({
      port: 4020,
      rateLimit: 10,
      rateLimitWindowSeconds: 60,
      admin: true,
      downloadCors: false,
      corsOrigins: ["https://a.example", "https://b.example"],
      faults: { latencyMs: 50, errorRate: 0.1, rateLimitBurst: 0, dropRate: 0 },
    });
    expect(parseArguments([]).options.port).toBe(4010);
    // The download origin sits beside the API, where the add-in's Content-Security-Policy expects it.
    expect(parseArguments([]).options.downloadPort).toBe(4011);
    expect(parseArguments(["--port", "4020"]).options.downloadPort).toBe(4021);
    expect(parseArguments(["--port", "0"]).options.downloadPort).toBe(0);
    expect(parseArguments(["--download-port", "5000"]).options.downloadPort).toBe(5000);
    expect(parseArguments(["--variant", "alternate"]).options.variant).toBe("alternate");
    expect(parseArguments([]).options.variant).toBeUndefined();
  });

  it("rejects bad values with a readable message", () => {
    expect(() => parseArguments(["--error-rate", "2"])).toThrow(
      "--error-rate must be a number between 0 and 1",
    );
    expect(() => parseArguments(["--port", "http"])).toThrow("--port must be a whole number >= 0");
    expect(() => parseArguments(["--colour"])).toThrow();
    expect(() => parseArguments(["--variant", "newest"])).toThrow(
      "--variant must be one of documented, alternate",
    );
  });
});

describe("tsx sandbox/main.ts", () => {
  it("prints `listening on <url>` and the demo credentials, serves, and stops on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "sandbox/main.ts", "--port", "0", "--properties", "500"],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const lines: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // The banner ends with the limits line; by then the URL and every credential line are printed.
    const url = await new Promise<string>((resolve, reject) => {
      const reader = createInterface({ input: child.stdout });
      reader.on("line", (line) => {
        lines.push(line);
        const listening = lines
          .map((entry) => /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(entry)?.[1])
          .find(Boolean);
        if (line.startsWith("rate limit") && listening) resolve(listening);
      });
      child.on("exit", () => reject(new Error(`sandbox exited early: ${lines.join("\n")}`)));
    });
    const token = await fetch(`${url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=demo-base&client_secret=sandbox-secret-base",
    });
    expect(token.status).toBe(200);
    for (const client of DEMO_CLIENTS) {
      expect(lines.some((line) => line.includes(client.clientId) && line.includes(client.clientSecret))).toBe(
        true,
      );
    }
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
