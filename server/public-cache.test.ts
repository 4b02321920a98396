import { createServer, get, type IncomingMessage, type Server } from "node:http";
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { createPublicCache, PUBLIC_CACHE_CONTROL, type PublicCache } from "./public-cache";
import { sendResponse } from "./router-handler";

// A story sitemap of 2,000 URLs, as large as the biggest answers the cache keeps.
const hugePage = `<urlset>${Array.from({ length: 2_000 }, (_, i) => `<url><loc>https://oddwire.test/story/goat-elected-mayor-${i}</loc><lastmod>2026-11-${String((i % 28) + 1).padStart(2, "0")}T10:00:00Z</lastmod></url>`).join("\n")}</urlset>`;

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/**
 * A real HTTP server behind the cache whose pages say how often they were rendered. The cache reads
 * a clock the test moves by hand, and /slow renders only once the test lets it.
 */
async function start(options: { ttlMs?: number; staleMs?: number; staleIfErrorMs?: number; maintenance?: boolean; baseHeaders?: [string, string][]; maxBytes?: number } = {}) {
  let time = 0;
  // Renders until the test takes its "database" away, then fails as a page does without one.
  let databaseUp = true;
  const maintenance = options.maintenance
    ? { isDatabaseDown: async () => !databaseUp, html: Buffer.from("<p>Back in a moment</p>"), retryAfterSeconds: 30 }
    : undefined;
  const cache: PublicCache = createPublicCache({ ...options, maintenance, now: () => time });
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
  // As server/web.ts does: a fresh page is answered by the node handler, before any routing.
  let routed = 0;
  server = createServer((req, res) => {
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
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
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

/** A response's headers but those that differ by request anyway. */
function headersOf(response: Response): Record<string, string> {
  const kept = Object.fromEntries([...response.headers.entries()].filter(([name]) => !["date", "connection", "keep-alive", "x-cache"].includes(name)));
  return kept;
}

describe("the public page cache", () => {
  test("a hit, plain, compressed or 304, carries the headers the rendered answer did, the base headers among them", async () => {
    const baseHeaders: [string, string][] = [
      ["X-Content-Type-Options", "nosniff"],
      ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ];
    const { base, routed } = await start({ baseHeaders });
    for (const encoding of ["identity", "gzip", "br"]) {
      const miss = await fetch(`${base}/big?as=${encoding}`, { headers: { "Accept-Encoding": encoding } });
      const hit = await fetch(`${base}/big?as=${encoding}`, { headers: { "Accept-Encoding": encoding } });
      expect([miss.headers.get("x-cache"), hit.headers.get("x-cache")]).toEqual(["MISS", "HIT"]);
      expect(headersOf(hit)).toEqual(headersOf(miss));
      expect(hit.headers.get("x-content-type-options")).toBe("nosniff");
      expect(hit.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(await hit.text()).toBe(await miss.text());
      const notModified = await fetch(`${base}/big?as=${encoding}`, { headers: { "Accept-Encoding": encoding, "If-None-Match": hit.headers.get("etag")! } });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get("etag")).toBe(hit.headers.get("etag"));
      expect(notModified.headers.get("x-content-type-options")).toBe("nosniff");
      expect(notModified.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    }
    expect(routed()).toBe(3);
  });

  test("a page rendered again with the same content keeps its ETag whatever its nonce, and a 304 leaves the reader's policy alone", async () => {
    const { base, renders, advanceClock } = await start();
    const first = await fetch(`${base}/nonced`, { headers: { "Accept-Encoding": "br" } });
    const firstBody = await first.text();
    advanceClock(60_000);
    const again = await fetch(`${base}/nonced`, { headers: { "Accept-Encoding": "br" } });
    expect(renders()).toBe(2);
    // A new nonce in the policy and the page...
    expect(again.headers.get("content-security-policy")).not.toBe(first.headers.get("content-security-policy"));
    expect(await again.text()).not.toBe(firstBody);
    // ...but the same ETag, so the first reader's copy is still good.
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    const revalidated = await fetch(`${base}/nonced`, { headers: { "Accept-Encoding": "br", "If-None-Match": first.headers.get("etag")! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("content-security-policy")).toBeNull();
    // A page whose content changed gets a new ETag, as before.
    const other = await fetch(`${base}/big`, { headers: { "Accept-Encoding": "br" } });
    expect(other.headers.get("etag")).not.toBe(first.headers.get("etag"));
  });

  test("keeps pages up to a number of bytes, the least recently used going first", async () => {
    // /big is about 5 KB as it is, far less compressed: 20 KB holds three of them, not six.
    const { base, renders } = await start({ maxBytes: 20_000 });
    for (let n = 1; n <= 6; n++) expect((await fetch(`${base}/big?n=${n}`)).headers.get("x-cache")).toBe("MISS");
    expect((await fetch(`${base}/big?n=6`)).headers.get("x-cache")).toBe("HIT");
    expect((await fetch(`${base}/big?n=1`)).headers.get("x-cache")).toBe("MISS");
    expect(renders()).toBe(7);
  });

  test("serves a repeated page from memory with the same body, an ETag and Cache-Control", async () => {
    const { base, renders } = await start();
    const first = await fetch(`${base}/page`);
    const second = await fetch(`${base}/page`);
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(await first.text()).toBe("<p>render 1</p>");
    expect(await second.text()).toBe("<p>render 1</p>");
    expect(renders()).toBe(1);
    expect(first.headers.get("etag")).toMatch(/^W\/".+"$/);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(first.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(first.headers.get("content-type")).toContain("text/html");
  });

  test("answers a matching If-None-Match with 304 and no body", async () => {
    const { base } = await start();
    const etag = (await fetch(`${base}/page`)).headers.get("etag")!;
    const again = await fetch(`${base}/page`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const other = await fetch(`${base}/page`, { headers: { "if-none-match": 'W/"stale"' } });
    expect(other.status).toBe(200);
  });

  test("shows a change once its time to live has passed, and not before", async () => {
    const { base, advanceClock } = await start({ ttlMs: 50 });
    expect(await (await fetch(`${base}/page`)).text()).toBe("<p>render 1</p>");
    advanceClock(49);
    expect(await (await fetch(`${base}/page`)).text()).toBe("<p>render 1</p>");
    advanceClock(1);
    expect(await (await fetch(`${base}/page`)).text()).toBe("<p>render 2</p>");
  });

  test("drops everything at once when cleared after an editorial change", async () => {
    const { base, cache } = await start();
    await fetch(`${base}/page`);
    cache.clear();
    expect(await (await fetch(`${base}/page`)).text()).toBe("<p>render 2</p>");
  });

  test("a render begun before a change is not kept, nor served to requests after the change", async () => {
    const { base, cache, holdSlow } = await start();
    const slow = holdSlow();
    const before = fetch(`${base}/slow`);
    await slow.entered;
    cache.clear();
    slow.release();
    expect(await (await before).text()).toBe("<p>slow 1</p>");
    expect(await (await fetch(`${base}/slow`)).text()).toBe("<p>slow 2</p>");
  });

  test("keeps a Cache-Control the route set itself", async () => {
    const { base } = await start();
    expect((await fetch(`${base}/feed`)).headers.get("cache-control")).toBe("public, max-age=60");
  });

  test("caches 404 pages but never errors, cookies, admin pages, posts or signed-in editors", async () => {
    const { base, renders } = await start();
    await fetch(`${base}/missing`);
    expect((await fetch(`${base}/missing`)).headers.get("x-cache")).toBe("HIT");
    for (const path of ["/broken", "/cookie", "/admin/stories"]) {
      await fetch(`${base}${path}`);
      expect((await fetch(`${base}${path}`)).headers.get("x-cache"), path).toBeNull();
    }
    const before = renders();
    await fetch(`${base}/page`, { method: "POST" });
    await fetch(`${base}/page`, { method: "POST" });
    expect(renders()).toBe(before + 2);
    await fetch(`${base}/page`);
    const editor = await fetch(`${base}/page`, { headers: { cookie: "better-auth.session_token=abc" } });
    expect(editor.headers.get("x-cache")).toBeNull();
  });

  test("renders a page once when many ask for it at the same time", async () => {
    const { base, renders, holdSlow, arrived } = await start();
    const slow = holdSlow();
    const bodies = Promise.all(Array.from({ length: 10 }, () => fetch(`${base}/slow`).then((r) => r.text())));
    // All ten are in before the one render may finish.
    await arrived(10);
    slow.release();
    expect(new Set(await bodies)).toEqual(new Set(["<p>slow 1</p>"]));
    expect(renders()).toBe(1);
  });

  test("while one request refreshes an expired page, the others get the previous version at once", async () => {
    const { base, renders, advanceClock, holdSlow, routed } = await start({ ttlMs: 50, staleMs: 10_000 });
    await fetch(`${base}/slow`);
    advanceClock(50);
    const slow = holdSlow();
    const refreshing = fetch(`${base}/slow`);
    await slow.entered;
    const seen = routed();
    const meanwhile = await fetch(`${base}/slow`);
    expect(meanwhile.headers.get("x-cache")).toBe("STALE");
    // Answered before any routing, as a fresh page is.
    expect(routed()).toBe(seen);
    expect(await meanwhile.text()).toBe("<p>slow 1</p>");
    slow.release();
    expect(await (await refreshing).text()).toBe("<p>slow 2</p>");
    expect(renders()).toBe(2);
  });

  test("never serves a version older than its stale limit: others wait for the fresh one", async () => {
    const { base, renders, advanceClock, holdSlow, arrived } = await start({ ttlMs: 50, staleMs: 1_000 });
    await fetch(`${base}/slow`);
    advanceClock(1_000);
    const slow = holdSlow();
    const refreshing = fetch(`${base}/slow`);
    await slow.entered;
    const waiting = fetch(`${base}/slow`);
    await arrived(3);
    slow.release();
    const [fresh, waited] = await Promise.all([refreshing, waiting]);
    expect(await fresh.text()).toBe("<p>slow 2</p>");
    expect(waited.headers.get("x-cache")).toBe("HIT");
    expect(await waited.text()).toBe("<p>slow 2</p>");
    expect(renders()).toBe(2);
  });

  test("while pages fail to render, the last good version is served for up to ten minutes, then the failure shows", async () => {
    const site = await start({ ttlMs: 2_000, staleMs: 30_000, staleIfErrorMs: 600_000 });
    const good = await fetch(`${site.base}/outage`);
    expect(await good.text()).toBe("<p>outage 1</p>");
    site.setDatabase(false);
    site.advanceClock(5 * 60_000);
    const during = await fetch(`${site.base}/outage`);
    expect(during.status).toBe(200);
    expect(during.headers.get("x-cache")).toBe("STALE-IF-ERROR");
    expect(during.headers.get("cache-control")).toContain("stale-if-error=600");
    expect(await during.text()).toBe("<p>outage 1</p>");
    // Every request still tries to render: the site recovers by itself as soon as the database is back.
    expect(site.renders()).toBe(2);
    site.advanceClock(6 * 60_000);
    const tooOld = await fetch(`${site.base}/outage`);
    expect(tooOld.status).toBe(500);
    site.setDatabase(true);
    expect(await (await fetch(`${site.base}/outage`)).text()).toBe("<p>outage 4</p>");
  });

  test("a page that fails while the database is down, with no good copy kept, is the maintenance page; other failures are not", async () => {
    const site = await start({ maintenance: true });
    site.setDatabase(false);
    const down = await fetch(`${site.base}/outage`);
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("30");
    expect(down.headers.get("cache-control")).toBe("no-store");
    expect(down.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(down.headers.get("x-cache")).toBe("MAINTENANCE");
    expect(await down.text()).toBe("<p>Back in a moment</p>");
    // Nothing of it is kept: the database back, the page renders.
    site.setDatabase(true);
    expect(await (await fetch(`${site.base}/outage`)).text()).toBe("<p>outage 2</p>");
    // A page that fails with the database up is its own failure, as it was rendered.
    const broken = await fetch(`${site.base}/broken`);
    expect(broken.status).toBe(500);
    expect(await broken.text()).toBe("oops");
    // A good copy kept wins over the maintenance page.
    site.setDatabase(false);
    site.advanceClock(60_000);
    const stale = await fetch(`${site.base}/outage`);
    expect(stale.status).toBe(200);
    expect(stale.headers.get("x-cache")).toBe("STALE-IF-ERROR");
  });

  test("a page is compressed once and kept as br, gzip and identity, each with its own ETag, and answered by the encoding asked", async () => {
    const site = await start();
    const raw = (encoding: string | null, extra: Record<string, string> = {}) =>
      new Promise<{ res: IncomingMessage; body: Buffer }>((resolve, reject) => {
        get(`${site.base}/big`, { headers: { ...(encoding === null ? {} : { "accept-encoding": encoding }), ...extra } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ res, body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    const plain = await raw(null);
    const page = plain.body.toString();
    expect(page).toContain("render 1");
    const br = await raw("gzip, deflate, br");
    const gz = await raw("gzip");
    const refused = await raw("br;q=0, gzip;q=0");
    expect(br.res.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).toString()).toBe(page);
    expect(br.body.length).toBeLessThan(plain.body.length / 5);
    expect(gz.res.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(page);
    expect(refused.res.headers["content-encoding"]).toBeUndefined();
    for (const answer of [plain, br, gz]) expect(answer.res.headers.vary).toBe("Accept-Encoding");
    expect(new Set([plain, br, gz].map((a) => a.res.headers.etag)).size).toBe(3);
    // Rendered once, whatever the encodings asked.
    expect(site.renders()).toBe(1);
    const revalidated = await raw("br", { "if-none-match": String(br.res.headers.etag) });
    expect(revalidated.res.statusCode).toBe(304);
    expect(revalidated.res.headers.etag).toBe(br.res.headers.etag);
    expect(revalidated.body.length).toBe(0);
  });

  test("brotli is quality 5 for a page and quality 4 for a body of 128 KB or more, where 5 costs far more time", async () => {
    const site = await start();
    const brOf = (path: string) =>
      new Promise<Buffer>((resolve, reject) => {
        get(`${site.base}${path}`, { headers: { "accept-encoding": "br" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve(Buffer.concat(chunks)));
        }).on("error", reject);
      });
    const at = (body: Buffer | string, quality: number) =>
      brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: quality, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body) } });
    const huge = await brOf("/huge");
    expect(Buffer.byteLength(hugePage)).toBeGreaterThanOrEqual(128 * 1024);
    expect(huge.equals(at(hugePage, 4))).toBe(true);
    expect(huge.equals(at(hugePage, 5))).toBe(false);
    const page = await brOf("/big");
    expect(brotliDecompressSync(page).toString()).toContain("render 1");
    expect(page.equals(at(brotliDecompressSync(page), 5))).toBe(true);
  });

  test("a fresh page is answered before any routing; an expired one goes on to be rendered", async () => {
    const site = await start({ ttlMs: 50, staleMs: 10_000 });
    await (await fetch(`${site.base}/big`)).text();
    const before = site.routed();
    const hit = await fetch(`${site.base}/big`);
    expect(hit.headers.get("x-cache")).toBe("HIT");
    await hit.text();
    const conditional = await fetch(`${site.base}/big`, { headers: { "if-none-match": String(hit.headers.get("etag")) } });
    expect(conditional.status).toBe(304);
    expect(site.routed()).toBe(before);
    site.advanceClock(50);
    await (await fetch(`${site.base}/big`)).text();
    expect(site.routed()).toBe(before + 1);
  });
});
