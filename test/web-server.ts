import { rmSync } from "node:fs";
import os from "node:os";
import pino from "pino";
import type { ServerBuild } from "react-router";
import type { Database } from "~/db/client";
import { loadConfig } from "~/server/config";
import type { Logger } from "~/server/logger";
import { startWebServer, type WebServer } from "~/server/http/web";
import { freePort } from "./http-test-server";
import { tempDir } from "~/test/temp-dir";

/**
 * A React Router server build of the given entry, routes and assets manifest, standing in for
 * `npm run build` in tests of the web server: the rest is what a build without prerendering has.
 */
export function testServerBuild(parts: { entry: unknown; routes: unknown; assets: unknown; routeDiscovery?: unknown }): ServerBuild {
  return {
    publicPath: "/",
    assetsBuildDirectory: os.tmpdir(),
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
    ...parts,
  } as unknown as ServerBuild;
}

/** A route's entry in a test build's assets manifest: no client code, the given keys on top. */
export const routeEntry = (id: string, extra: Record<string, unknown>) => ({
  id,
  module: "",
  hasAction: false,
  hasLoader: false,
  hasClientAction: false,
  hasClientLoader: false,
  hasClientMiddleware: false,
  hasErrorBoundary: false,
  ...extra,
});

/**
 * The web server with `build`, in production mode on a free port of 127.0.0.1 and a data directory of
 * its own (removed on close) unless it is given one to share, its page cache kept a minute unless a
 * test drops it or says otherwise.
 */
export async function startTestWebServer(database: Database, build: ServerBuild, options: { dataDir?: string; pageCacheTtlMs?: number } = {}): Promise<WebServer> {
  const port = await freePort();
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? tempDir("oddwire-web-server-");
  const config = loadConfig({ NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789" });
  const server = await startWebServer({ config, database, logger: pino({ level: "silent" }) as Logger, build, pageCacheTtlMs: options.pageCacheTtlMs ?? 60_000 }).catch((error: unknown) => {
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  return {
    ...server,
    close: async () => {
      await server.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
