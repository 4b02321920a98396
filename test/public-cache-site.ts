import { rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicCache, type PublicCache } from "~/server/http/public-cache";
import { sendResponse } from "~/server/http/router-handler";
import { seededRandom } from "~/lib/seeded-random";
import { tempDir as newTempDir } from "~/test/temp-dir";

// A site behind the public page cache, for the tests of server/http/public-cache.ts.
// A story sitemap of 2,000 URLs, as large as the biggest answers the cache keeps.
export const hugePage = `<urlset>${Array.from({ length: 2_000 }, (_, i) => `<url><loc>https://oddwire.test/story/goat-elected-mayor-${i}</loc><lastmod>2026-11-${String((i % 28) + 1).padStart(2, "0")}T10:00:00Z</lastmod></url>`).join("\n")}</urlset>`;

const noise = seededRandom(7);
/** 12,000 hex digits in a paragraph: its br and gzip forms are each about half its size. */
export const noisyPage = `<p>${Array.from({ length: 12_000 }, () => Math.floor(noise() * 16).toString(16)).join("")}</p>`;

const servers: Server[] = [];
const dirs: string[] = [];
/** Closes every site started and removes every directory made since the last call (each test's afterEach). */
export async function closeSites(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A real HTTP server behind the cache whose pages say how often they were rendered. The cache reads
 * a clock the test moves by hand, and /slow renders only once the test lets it.
 */
export async function startCachedSite(
  options: { ttlMs?: number; staleMs?: number; staleIfErrorMs?: number; maintenance?: boolean; baseHeaders?: [string, string][]; maxBytes?: number; copiesDir?: string; onCopyError?: (error: unknown, action: "keep" | "read") => void } = {},
) {
  let time = 0;
  // Renders until the test takes its "database" away, then fails as a page does without one.
  let databaseUp = true;
  const maintenance = options.maintenance
    ? { isDatabaseDown: async () => !databaseUp, html: Buffer.from("<p>Back in a moment</p>"), retryAfterSeconds: 30 }
    : undefined;
  const copies = options.copiesDir ? { dir: options.copiesDir } : undefined;
  const cache: PublicCache = createPublicCache({ ...options, maintenance, copies, now: () => time });
  let renders = 0;
  let slowGate: Promise<void> = Promise.resolve();
  let slowEntered: () => void = () => {};
  let arrivals = 0;
  let arrivalWaiters: { count: number; resolve: () => void }[] = [];
  const html = { "Content-Type": "text/html; charset=utf-8" };
  const text = { "Content-Type": "text/plain; charset=utf-8" };
  // The site's pages, as React Router would answer them.
  const pages: Record<string, () => Response | Promise<Response>> = {
    "GET /page": () => {
      renders++;
      // Written in pieces, as a streamed render would be.
      const pieces = ["<p>render ", String(renders), "</p>"].map((piece) => new TextEncoder().encode(piece));
      return new Response(new ReadableStream({ pull: (controller) => void (pieces.length ? controller.enqueue(pieces.shift()) : controller.close()) }), { headers: html });
    },
    "GET /slow": async () => {
      const n = ++renders;
      slowEntered();
      await slowGate;
      return new Response(`<p>slow ${n}</p>`, { headers: html });
    },
    "GET /feed": () => new Response("<rss/>", { headers: { "Cache-Control": "public, max-age=60", "Content-Type": "application/xml" } }),
    "GET /missing": () => new Response("not here", { status: 404, headers: text }),
    "GET /broken": () => new Response("oops", { status: 500, headers: text }),
    "GET /big": () => {
      renders++;
      return new Response(`<main>${"<p>A goat was elected mayor of a small town.</p>".repeat(100)}<p>render ${renders}</p></main>`, { headers: html });
    },
    // Hex digits from a seeded generator: compressed, about half its size, so each encoding kept weighs.
    "GET /noisy": () => {
      renders++;
      return new Response(noisyPage, { headers: html });
    },
    "GET /huge": () => new Response(hugePage, { headers: { "Content-Type": "application/xml" } }),
    "GET /outage": () => {
      renders++;
      if (databaseUp) return new Response(`<p>outage ${renders}</p>`, { headers: html });
      return new Response("<p>Something went wrong</p>", { status: 500, headers: html });
    },
    // A page as entry.server.tsx renders it: a new script nonce each time, in its policy and its scripts.
    "GET /nonced": () => {
      renders++;
      const nonce = `n${renders}x${Math.random().toString(36).slice(2)}`;
      return new Response(`<main>${"<p>A goat was elected mayor.</p>".repeat(60)}<script nonce="${nonce}">hydrate()</script></main>`, {
        headers: { ...html, "Content-Security-Policy": `default-src 'self'; script-src 'self' 'nonce-${nonce}'` },
      });
    },
    "GET /cookie": () => new Response(`cookie ${++renders}`, { headers: { ...text, "Set-Cookie": "a=b; Path=/" } }),
    "GET /admin/stories": () => new Response(`admin ${++renders}`, { headers: text }),
    "POST /page": () => new Response(`posted ${++renders}`, { headers: text }),
  };
  // As server/http/web.ts does: a fresh page is answered by the node handler, before any routing.
  let routed = 0;
  const server = createServer((req, res) => {
    if (cache.serveHit(req, res)) return;
    // As applySecurityHeaders does for every answer that is not a hit.
    for (const [name, value] of options.baseHeaders ?? []) res.setHeader(name, value);
    routed++;
    const page = pages[`${req.method} ${(req.url ?? "/").split("?", 1)[0]}`] ?? (() => new Response("no such page", { status: 404, headers: text }));
    void cache
      .respond(req, res, { render: async () => page(), pass: (response) => sendResponse(req, res, response) })
      .catch(() => (res.headersSent ? res.destroy() : res.writeHead(500).end()));
    // Counts requests once the cache has decided what to do with them (it does so synchronously).
    arrivals++;
    arrivalWaiters = arrivalWaiters.filter((w) => (w.count <= arrivals ? (w.resolve(), false) : true));
  });
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    cache,
    base,
    renders: () => renders,
    advanceClock: (ms: number) => void (time += ms),
    setDatabase: (up: boolean) => void (databaseUp = up),
    routed: () => routed,
    /** Settles once the cache has taken `count` requests in all. */
    arrived: (count: number) =>
      new Promise<void>((resolve) => (count <= arrivals ? resolve() : arrivalWaiters.push({ count, resolve }))),
    /** Holds the next /slow renders until released; `entered` settles when one has begun. */
    holdSlow() {
      let release!: () => void;
      slowGate = new Promise((resolve) => (release = resolve));
      const entered = new Promise<void>((resolve) => (slowEntered = resolve));
      return { entered, release: () => release() };
    },
  };
}

/** A directory of its own for the shared copies of pages, removed after the test. */
export function tempDir(): string {
  const dir = newTempDir("oddwire-public-cache-");
  dirs.push(dir);
  return dir;
}
