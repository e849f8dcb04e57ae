/**
 * The preview: the host page (test/host/page) with the real built add-in in its frame, served from one
 * origin, and a sandbox that accepts that origin. The add-in's taskpane.html is served as built except for
 * two rewrites: Office.js becomes the stand-in, and the page's Content-Security-Policy lets it reach this
 * sandbox (whatever its port) and its download origin.
 */
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { build } from "esbuild";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../sandbox/server";
import { addInBuild } from "./addinBuild";
import type { HostConfig } from "./page/main";

const OFFICE_JS_TAG =
  /<script\s+src=["']?https:\/\/appsforoffice\.microsoft\.com\/lib\/1\/hosted\/office\.js["']?\s*><\/script>/;
const STAND_IN_PATH = "/standin/office.js";
/**
 * Served before the real office.js (the preview's realOfficeJs): office.js, framed by no Office host, takes the
 * frame to about:blank once its own scripts load, unless `OsfOptOut` is set (office.debug.js). Set before
 * office.js runs, not by the stand-in after it, so no load order can let office.js win the race.
 */
const OSF_OPT_OUT_PATH = "/standin/osf-opt-out.js";
const OSF_OPT_OUT_SCRIPT = "window.OsfOptOut = true;\n";
const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".css": "text/css",
  ".png": "image/png",
  ".map": "application/json",
  ".xml": "application/xml",
};

export interface PreviewOptions {
  /** Port of the page; 0 (default) picks a free one. */
  port?: number;
  /** Sandbox settings; its CORS origins always include the preview's own origin. */
  sandbox?: Partial<SandboxOptions>;
  /**
   * Keep the page's office.js tag and load the stand-in after it: the real office.js starts in the frame
   * (the browser must answer its CDN URL) and the stand-in then plays the host. Default: the stand-in alone.
   */
  realOfficeJs?: boolean;
}

export interface RunningPreview {
  /** The host page, e.g. "http://127.0.0.1:3100/". */
  url: string;
  sandbox: RunningSandbox;
  close(): Promise<void>;
}

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [join(__dirname, entry)],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    sourcemap: "inline",
  });
  return result.outputFiles[0]?.text ?? "";
}

/**
 * Office.js becomes the stand-in (or, with `realOfficeJs`, is followed by it); `origins` are added to the
 * page's connect-src.
 */
function rewriteTaskpane(html: string, origins: string[], realOfficeJs = false): string {
  if (!OFFICE_JS_TAG.test(html)) {
    throw new Error(
      "taskpane.html no longer loads Office.js from appsforoffice.microsoft.com: update the preview.",
    );
  }
  // The build already allows the default sandbox ports; a sandbox elsewhere (the tests') must be added.
  const connectSources = /connect-src ([^;"]*)/.exec(html)?.[1]?.split(" ") ?? [];
  const missing = origins.filter((origin) => !connectSources.includes(origin));
  const standIn = `<script src="${STAND_IN_PATH}"></script>`;
  return html
    .replace(OFFICE_JS_TAG, (officeJs) =>
      realOfficeJs ? `<script src="${OSF_OPT_OUT_PATH}"></script>` + officeJs + standIn : standIn,
    )
    .replace("connect-src 'self'", ["connect-src 'self'", ...missing].join(" "));
}

/** The manifest's custom functions namespace: the resource its <Namespace resid> names. */
function functionsNamespace(manifest: string): string {
  const resid = /<Namespace\s+resid="([^"]+)"/.exec(manifest)?.[1];
  const escaped = resid?.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const value =
    escaped && new RegExp(`<bt:String\\s+id="${escaped}"\\s+DefaultValue="([^"]+)"`).exec(manifest)?.[1];
  if (!value) throw new Error("manifest.xml declares no custom functions namespace.");
  return value;
}

export async function startPreview(options: PreviewOptions = {}): Promise<RunningPreview> {
  const [buildDir, hostScript, standInScript] = await Promise.all([
    addInBuild(),
    bundle("page/main.ts"),
    bundle("standin/main.ts"),
  ]);
  const [indexHtml, hostCss, manifest] = await Promise.all([
    readFile(join(__dirname, "page", "index.html"), "utf8"),
    readFile(join(__dirname, "page", "host.css"), "utf8"),
    readFile(join(buildDir, "manifest.xml"), "utf8"),
  ]);
  const config: HostConfig = {
    namespace: functionsNamespace(manifest),
    taskpaneUrl: "/taskpane.html",
    functionsMetadataUrl: "/functions.json",
  };

  let sandbox: RunningSandbox | undefined;
  const fixed: Record<string, () => [string, string]> = {
    "/": () => [CONTENT_TYPES[".html"]!, indexHtml],
    "/host/host.js": () => [CONTENT_TYPES[".js"]!, hostScript],
    "/host/host.css": () => [CONTENT_TYPES[".css"]!, hostCss],
    "/host/config.json": () => [CONTENT_TYPES[".json"]!, JSON.stringify(config)],
    [STAND_IN_PATH]: () => [CONTENT_TYPES[".js"]!, standInScript],
    [OSF_OPT_OUT_PATH]: () => [CONTENT_TYPES[".js"]!, OSF_OPT_OUT_SCRIPT],
  };

  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://preview").pathname);
    const answer = fixed[path];
    if (answer) {
      const [type, body] = answer();
      response.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" }).end(body);
      return;
    }
    const file = normalize(join(buildDir, path));
    if (!file.startsWith(buildDir)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const content = await readFile(file);
      const type = CONTENT_TYPES[extname(file)] ?? "application/octet-stream";
      const body =
        path === "/taskpane.html" && sandbox
          ? rewriteTaskpane(
              content.toString("utf8"),
              [sandbox.url, sandbox.downloadUrl],
              options.realOfficeJs,
            )
          : content;
      response.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" }).end(body);
    } catch {
      response.writeHead(404, { "Content-Type": "text/plain" }).end(`Not found: ${path}`);
    }
  };

  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      response.writeHead(500, { "Content-Type": "text/plain" }).end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  try {
    const corsOrigins = [...(options.sandbox?.corsOrigins ?? ["https://localhost:3000"]), origin];
    sandbox = await startSandbox({ ...options.sandbox, corsOrigins });
  } catch (error) {
    await closeServer();
    throw error;
  }
  const running = sandbox;
  return {
    url: `${origin}/`,
    sandbox: running,
    close: async () => {
      await Promise.all([closeServer(), running.close()]);
    },
  };
}

/**
 * The preview as files for a server that is not this one: the team relay serves them as its `dist/`, so the
 * host page, the stand-in and the add-in (a build for the relay) share the relay's origin with its API, and
 * the page's connect-src stays as the build wrote it.
 */
export async function writePreviewSite(buildDir: string, siteDir: string): Promise<void> {
  const [hostScript, standInScript, indexHtml, hostCss, manifest, taskpane] = await Promise.all([
    bundle("page/main.ts"),
    bundle("standin/main.ts"),
    readFile(join(__dirname, "page", "index.html"), "utf8"),
    readFile(join(__dirname, "page", "host.css"), "utf8"),
    readFile(join(buildDir, "manifest.xml"), "utf8"),
    readFile(join(buildDir, "taskpane.html"), "utf8"),
  ]);
  const config: HostConfig = {
    namespace: functionsNamespace(manifest),
    taskpaneUrl: "/taskpane.html",
    functionsMetadataUrl: "/functions.json",
  };
  await cp(buildDir, siteDir, { recursive: true });
  await mkdir(join(siteDir, "host"), { recursive: true });
  await mkdir(join(siteDir, "standin"), { recursive: true });
  await Promise.all([
    writeFile(join(siteDir, "index.html"), indexHtml),
    writeFile(join(siteDir, "host", "host.js"), hostScript),
    writeFile(join(siteDir, "host", "host.css"), hostCss),
    writeFile(join(siteDir, "host", "config.json"), JSON.stringify(config)),
    writeFile(join(siteDir, STAND_IN_PATH.slice(1)), standInScript),
    writeFile(join(siteDir, "taskpane.html"), rewriteTaskpane(taskpane, [])),
  ]);
}
