/**
 * A page that runs one module of the add-in in the browser: the module bundled with esbuild and served, with
 * a page that loads it, from 127.0.0.1 on a free port.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";

export interface ServedBundle {
  /** e.g. "http://127.0.0.1:41234"; the page is at `${origin}/`. */
  origin: string;
  close(): Promise<void>;
}

export async function serveBundle(entryFile: string): Promise<ServedBundle> {
  const bundle = await build({
    entryPoints: [entryFile],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
  });
  const script = bundle.outputFiles[0]?.text ?? "";
  const server = createServer((request, response) => {
    if (request.url === "/page.js") {
      response.writeHead(200, { "Content-Type": "text/javascript" }).end(script);
    } else {
      response
        .writeHead(200, { "Content-Type": "text/html" })
        .end('<!doctype html><title>test page</title><script src="/page.js"></script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
