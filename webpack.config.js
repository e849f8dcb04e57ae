const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const webpack = require("webpack");
const { HelpPagePlugin, FUNCTION_REFERENCE, SUPPORT_PAGE } = require("./scripts/helpPagePlugin");

/** The origin the add-in is served from during development (the manifest's URLs use it). */
const DEV_BASE_URL = "https://localhost:3000/";
const DEV_SERVER_PORT = 3000;

/** Origins named in RENT_SERVICE_ORIGINS: services a deployment calls directly (they must allow CORS). */
function extraOrigins() {
  return (process.env.RENT_SERVICE_ORIGINS || "").split(/[\s,]+/).filter(Boolean);
}

/** Service origins the pane may call: the local sandbox, the live service, and any extra ones for a deployment. */
function serviceOrigins() {
  const extra = extraOrigins();
  // The sandbox's API (4010) and its download origin (4011, where export files are served by signed URL).
  const sandbox = [
    "http://127.0.0.1:4010",
    "http://localhost:4010",
    "http://127.0.0.1:4011",
    "http://localhost:4011",
  ];
  return [...sandbox, "https://data.apartmentiq.io", ...extra];
}

/**
 * A build for a server is served by the team relay (relay/), which forwards the service's API at `api/` under
 * the same origin: the page then talks to its own origin only (plus RENT_SERVICE_ORIGINS, if any).
 */
function relayServiceUrl(baseUrl) {
  return baseUrl ? `${baseUrl}api` : "";
}

/**
 * What office.js itself needs beyond its own script origin, and nothing more (docs/hosts.md, "The page's
 * Content-Security-Policy", gives the sources). Where it runs without an Office host (the pane's page opened in
 * a browser), its logging proxy frames this one page, after setting exactly this style attribute on the frame.
 */
const OFFICE_JS_LOGGING_FRAME =
  "https://telemetryservice.firstpartyapps.oaspapps.com/telemetryservice/telemetryproxy.html";
const OFFICE_JS_LOGGING_FRAME_STYLE = "display:none";

/** A CSP source for one exact inline style attribute (hashes match attributes only with 'unsafe-hashes'). */
function styleAttributeHash(style) {
  return `'sha256-${crypto.createHash("sha256").update(style).digest("base64")}'`;
}

function contentSecurityPolicy(baseUrl) {
  const origins = baseUrl ? extraOrigins() : serviceOrigins();
  return [
    "default-src 'self'",
    "script-src 'self' https://appsforoffice.microsoft.com",
    "style-src 'self'",
    `style-src-attr 'unsafe-hashes' ${styleAttributeHash(OFFICE_JS_LOGGING_FRAME_STYLE)}`,
    `frame-src ${OFFICE_JS_LOGGING_FRAME}`,
    "img-src 'self' data:",
    ["connect-src 'self'", ...origins].join(" "),
    "object-src 'none'",
    "base-uri 'self'",
  ].join("; ");
}

/** The production base URL: where the built add-in will be hosted (must end with a slash). */
function productionBaseUrl() {
  const url = process.env.ADDIN_BASE_URL;
  if (!url) return undefined;
  if (!/^https:\/\/[^/]+\/(.*\/)?$/.test(url)) {
    throw new Error(`ADDIN_BASE_URL must be an https URL ending in "/", got "${url}".`);
  }
  return url;
}

/**
 * HTTPS for the dev server from office-addin-dev-certs' localhost certificate. Where the CA cannot be
 * trusted automatically (Linux without sudo), `office-addin-dev-certs install` still generates the files
 * (npm start runs it), and they are used as they are.
 */
async function devServerHttps() {
  const dir = path.join(os.homedir(), ".office-addin-dev-certs");
  const files = { ca: "ca.crt", key: "localhost.key", cert: "localhost.crt" };
  if (Object.values(files).every((file) => fs.existsSync(path.join(dir, file)))) {
    return Object.fromEntries(
      Object.entries(files).map(([k, file]) => [k, fs.readFileSync(path.join(dir, file))]),
    );
  }
  const options = await require("office-addin-dev-certs").getHttpsServerOptions();
  return { ca: options.ca, key: options.key, cert: options.cert };
}

module.exports = async (env = {}, argv = {}) => {
  const dev = argv.mode === "development";
  const baseUrl = dev ? undefined : productionBaseUrl();
  // Every src/functions/*Functions.ts module holds RENT functions; the metadata plugin reads them all.
  const functionsInput = fs
    .readdirSync(path.join(__dirname, "src/functions"))
    .filter((file) => file.endsWith("Functions.ts"))
    .map((file) => `./src/functions/${file}`);

  return {
    devtool: "source-map",
    entry: {
      taskpane: "./src/taskpane/taskpane.ts",
      functions: functionsInput,
    },
    output: {
      path: path.resolve(__dirname, env.outDir || "dist"),
      filename: "[name].js",
      clean: true,
    },
    resolve: { extensions: [".ts", ".js"] },
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          loader: "ts-loader",
          // tsconfig.json is for type checking (noEmit); the bundle needs output, and only the shipped files.
          // `--env transpileOnly` leaves the type check to `npm run typecheck` (the tests' builds, which
          // `npm test` type-checks first); the bundle is the same.
          options: {
            onlyCompileBundledFiles: true,
            transpileOnly: Boolean(env.transpileOnly),
            compilerOptions: { noEmit: false },
          },
        },
      ],
    },
    // Both entries run on one page in one runtime: a single webpack runtime and one chunk for the modules
    // they both import make the pane and the functions share one session, client and cache.
    optimization: {
      runtimeChunk: "single",
      splitChunks: { cacheGroups: { shared: { name: "shared", chunks: "all", minChunks: 2, minSize: 0 } } },
    },
    plugins: [
      new webpack.DefinePlugin({
        "process.env.RENT_RELAY_SERVICE_URL": JSON.stringify(relayServiceUrl(baseUrl)),
      }),
      new CustomFunctionsMetadataPlugin({ output: "functions.json", input: functionsInput }),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./src/taskpane/taskpane.html",
        chunks: ["taskpane", "functions"],
        contentSecurityPolicy: contentSecurityPolicy(baseUrl),
      }),
      new HelpPagePlugin({
        reference: FUNCTION_REFERENCE,
        support: SUPPORT_PAGE,
        devBaseUrl: DEV_BASE_URL,
        baseUrl,
      }),
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets/*.png", to: "assets/[name][ext]" },
          { from: "src/taskpane/taskpane.css", to: "taskpane.css" },
          {
            from: "manifest.xml",
            to: "manifest.xml",
            transform(content) {
              return baseUrl ? content.toString().replaceAll(DEV_BASE_URL, baseUrl) : content;
            },
          },
        ],
      }),
    ],
    performance: { hints: false },
    devServer: {
      port: DEV_SERVER_PORT,
      headers: { "Access-Control-Allow-Origin": "*" },
      server: { type: "https", options: env.WEBPACK_SERVE ? await devServerHttps() : {} },
      static: false,
      client: { overlay: false },
    },
  };
};
