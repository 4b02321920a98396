import { readFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export type FixtureRoute = {
  /** A file to serve (absolute, or relative to the server's root), or a body to send. */
  file?: string;
  body?: string | Buffer;
  status?: number;
  headers?: OutgoingHttpHeaders;
};

export type FixtureServer = {
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  /** Every request seen, in order: method, path and headers. */
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  /** Adds or replaces a route while the server runs. */
  route(pathname: string, route: FixtureRoute): void;
  close(): Promise<void>;
};

const TYPES: Record<string, string> = {
  ".xml": "application/xml",
  ".rss": "application/rss+xml",
  ".atom": "application/atom+xml",
  ".json": "application/json",
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".gz": "application/gzip",
};

/**
 * Serves fixture files over real HTTP on 127.0.0.1 (a random port), for tests of anything that
 * fetches from outside. Routes map paths to files or bodies; any other path is looked up under `root`.
 */
export async function serveFixtures(
  options: { root?: string; routes?: Record<string, FixtureRoute> } = {},
): Promise<FixtureServer> {
  const routes = new Map(Object.entries(options.routes ?? {}));
  const requests: FixtureServer["requests"] = [];
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://fixture").pathname);
    requests.push({ method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers });
    const fromRoot = !routes.has(pathname);
    const route = routes.get(pathname) ?? (options.root ? { file: pathname.slice(1) } : undefined);
    try {
      if (!route) throw Object.assign(new Error("no route"), { code: "ENOENT" });
      let body = route.body;
      let type: string | undefined;
      if (body === undefined && route.file) {
        const file = path.isAbsolute(route.file) ? route.file : path.join(options.root ?? "", route.file);
        if (fromRoot && !path.resolve(file).startsWith(path.resolve(options.root ?? "/"))) {
          throw Object.assign(new Error("outside root"), { code: "ENOENT" });
        }
        body = await readFile(file);
        type = TYPES[path.extname(file).toLowerCase()];
      }
      res.writeHead(route.status ?? 200, { ...(type ? { "content-type": type } : {}), ...route.headers });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      res.writeHead(missing ? 404 : 500, { "content-type": "text/plain" });
      res.end(missing ? "not found" : "fixture server error");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    route: (pathname, route) => void routes.set(pathname, route),
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
