import { get, type IncomingMessage } from "node:http";
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, test } from "vitest";
import { closeSites, hugePage, noisyPage, startCachedSite as start } from "~/test/public-cache-site";
import { PUBLIC_CACHE_CONTROL } from "./public-cache";

afterEach(closeSites);

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

  test("a page is kept at first in its first reader's encoding; another is made once asked for, and counted", async () => {
    const asBr = { headers: { "Accept-Encoding": "br" } };
    const asGzip = { headers: { "Accept-Encoding": "gzip" } };
    const identity = Buffer.byteLength(noisyPage);
    const br = brotliCompressSync(noisyPage, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity } }).length;
    const gzip = gzipSync(noisyPage, { level: 6 }).length;
    // What the cache counts for an entry besides its bodies (ENTRY_OVERHEAD_BYTES).
    const overhead = 4_096;
    // Room for three pages kept as identity and br, not for three with one's gzip form too.
    const room = 3 * (overhead + identity + br) + 100;
    expect(gzip).toBeGreaterThan(100);
    const { base, renders } = await start({ maxBytes: room });
    for (const n of [1, 2, 3]) expect((await fetch(`${base}/noisy?n=${n}`, asBr)).headers.get("x-cache")).toBe("MISS");
    // A reader who takes only gzip gets the page as it is, at once, while its gzip form is made...
    const first = await fetch(`${base}/noisy?n=3`, asGzip);
    expect([first.headers.get("x-cache"), first.headers.get("content-encoding")]).toEqual(["HIT", null]);
    expect(await first.text()).toBe(noisyPage);
    // ...which the readers after it get.
    await expect.poll(async () => (await fetch(`${base}/noisy?n=3`, asGzip)).headers.get("content-encoding")).toBe("gzip");
    // (fetch takes the gzip form off.)
    expect(await (await fetch(`${base}/noisy?n=3`, asGzip)).text()).toBe(noisyPage);
    expect(renders()).toBe(3);
    // The page grew by its gzip form: the least recently used page made room for it.
    expect((await fetch(`${base}/noisy?n=3`, asBr)).headers.get("x-cache")).toBe("HIT");
    expect((await fetch(`${base}/noisy?n=2`, asBr)).headers.get("x-cache")).toBe("HIT");
    expect((await fetch(`${base}/noisy?n=1`, asBr)).headers.get("x-cache")).toBe("MISS");
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

  test("a page is rendered once and kept as br, gzip and identity, each with its own ETag, and answered by the encoding asked", async () => {
    const site = await start();
    const raw = (encoding: string | null, extra: Record<string, string> = {}) =>
      new Promise<{ res: IncomingMessage; body: Buffer }>((resolve, reject) => {
        get(`${site.base}/big`, { headers: { ...(encoding === null ? {} : { "accept-encoding": encoding }), ...extra } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ res, body: Buffer.concat(chunks) }));
        }).on("error", reject);
      });
    const br = await raw("gzip, deflate, br");
    const plain = await raw(null);
    const page = plain.body.toString();
    expect(page).toContain("render 1");
    // Made once a reader asks for it, for the readers after.
    await expect.poll(async () => (await raw("gzip")).res.headers["content-encoding"]).toBe("gzip");
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
