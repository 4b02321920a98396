import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { Suspense } from "react";
import { Await, Outlet, useLoaderData, type ServerBuild } from "react-router";
import { afterAll, describe, expect, test } from "vitest";
import handleRequest, { streamTimeout } from "~/app/entry.server";
import { useTestDatabase } from "~/db/testing/test-database";
import { freePort } from "~/test/http-test-server";
import { loadConfig } from "./config";
import type { Logger } from "./logger";
import { startWebServer, type WebServer } from "./web";

// A page the page cache keeps is rendered whole (app/entry.server.tsx): React Router would otherwise
// send its shell first and stream the rest in parts, and the bytes kept would depend on how busy the
// process was while rendering. A two-route app stands in for the React build, with the real server
// entry: its page has a part that arrives 50 ms after the rest, as a loader's promise.
const t = useTestDatabase();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const LATE_MS = 50;
/** As a browser: crawlers get whole pages whatever the cache. */
const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36" };

function Root() {
  return (
    <html lang="en">
      <body>
        <Outlet />
      </body>
    </html>
  );
}

function LatePage() {
  const { late } = useLoaderData<{ late: Promise<string> }>();
  return (
    <main>
      <p>On time.</p>
      <Suspense fallback={<p>Still coming...</p>}>
        <Await resolve={late}>{(text: string) => <p>{text}</p>}</Await>
      </Suspense>
    </main>
  );
}

const routeEntry = (id: string, extra: Record<string, unknown>) => ({
  id,
  module: "",
  hasAction: false,
  hasClientAction: false,
  hasClientLoader: false,
  hasClientMiddleware: false,
  hasErrorBoundary: false,
  ...extra,
});

const build = {
  entry: { module: { default: handleRequest, streamTimeout } },
  routes: {
    root: { id: "root", path: "", module: { default: Root } },
    late: {
      id: "late",
      parentId: "root",
      path: "late",
      module: {
        default: LatePage,
        loader: () => ({ late: new Promise<string>((resolve) => setTimeout(() => resolve("The late part."), LATE_MS)) }),
      },
    },
  },
  assets: {
    entry: { module: "/entry.js", imports: [] },
    routes: { root: routeEntry("root", { path: "", hasLoader: false }), late: routeEntry("late", { parentId: "root", path: "late", hasLoader: true }) },
    url: "/manifest.js",
    version: "1",
  },
  publicPath: "/",
  assetsBuildDirectory: os.tmpdir(),
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "initial" },
} as unknown as ServerBuild;

async function start(): Promise<WebServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "oddwire-whole-pages-"));
  dirs.push(dataDir);
  const config = loadConfig({ NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, AUTH_SECRET: "a-test-secret-that-is-long-enough-0123456789" });
  return startWebServer({ config, database: t.database, logger: pino({ level: "silent" }) as Logger, build, pageCacheTtlMs: 60_000 });
}

/** The part of the page before its closing tags: where the late part stands, or its fallback with a template to be filled in. */
function main(html: string): string {
  return /<main>(.*?)<\/main>/s.exec(html)?.[1] ?? html;
}

describe("pages the page cache keeps", () => {
  test("are rendered whole: the late part in its place, nothing streamed after the shell, the same bytes and ETag at every render", async () => {
    const server = await start();
    try {
      const first = await fetch(`${server.url}/late`, { headers: BROWSER });
      expect(first.status).toBe(200);
      expect(first.headers.get("x-cache")).toBe("MISS");
      const html = await first.text();
      expect(main(html)).toBe("<p>On time.</p><!--$--><p>The late part.</p><!--/$-->");
      expect(html).not.toContain("Still coming");

      // Rendered again (the page cache dropped), the same content makes the same page.
      server.invalidatePublicPages();
      const again = await fetch(`${server.url}/late`, { headers: BROWSER });
      expect(again.headers.get("x-cache")).toBe("MISS");
      expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
      const revalidated = await fetch(`${server.url}/late`, { headers: { ...BROWSER, "if-none-match": first.headers.get("etag")! } });
      expect(revalidated.status).toBe(304);
    } finally {
      await server.close();
    }
  });

  test("while a page the cache does not keep (a signed-in editor's) is still streamed: its shell first, the late part after", async () => {
    const server = await start();
    try {
      const answer = await fetch(`${server.url}/late`, { headers: { ...BROWSER, cookie: "better-auth.session_token=an-editor" } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-cache")).toBeNull();
      const html = await answer.text();
      expect(main(html)).toContain("Still coming...");
      expect(html).toMatch(/<template id="B:0"><\/template>/);
      expect(html).toContain("The late part.");
    } finally {
      await server.close();
    }
  });
});
