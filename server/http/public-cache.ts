import type { IncomingMessage, ServerResponse } from "node:http";
import { LRUCache } from "lru-cache";
import { createPageCopies } from "./page-copies";
import { addEncoding, ALL_ENCODINGS, chooseEncoding, makeEntry, type Encoding, type Entry, type Variant } from "./page-entry";
import { systemClock, type Clock } from "~/lib/clock";

/**
 * Cache-Control of public pages: a CDN may keep them a few seconds, browsers revalidate by ETag, and
 * a CDN may show the last good page for ten minutes while the site answers errors (as this cache does).
 */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=5, stale-while-revalidate=10, stale-if-error=600";

// The maintenance page has no script: its styles are inline, its one picture the site's logo.
const MAINTENANCE_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PRIVATE_PREFIXES = ["/admin", "/api/auth", "/healthz", "/readyz", "/metrics", "/assets/"];
const CACHEABLE_STATUS = new Set([200, 404]);
/**
 * What the page cache holds at most, in bytes of page variants: about 250 pages of 50 KB with their
 * compressed forms, far more than the pages read often (home, categories, the newest stories). With
 * 24 MB a web process at 1,000,000 stories held 294 MiB after `npm run bench:public`, over its 300 MB.
 */
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
/** What an entry costs besides its bodies (headers, ETags, header lists), as counted against maxBytes. */
const ENTRY_OVERHEAD_BYTES = 4_096;
const SESSION_COOKIE = /(?:^|;\s*)[\w.-]*session_token=/;

/**
 * Marks a response answered by a fresh hit: its headers went out in one writeHead, which getHeader
 * cannot read back. (A property, not a WeakSet: every hit would add an entry for the collector to weigh.)
 */
const FRESH_HIT = Symbol("fresh page-cache hit");

/**
 * Requests rendering a page for the cache. The cache sends a page only once it is complete, so it is
 * rendered whole (app/entry.server.tsx): streamed in parts, its bytes would depend on how busy the
 * process was while rendering, and each render of the same content would get an ETag of its own.
 */
const renderingForCache = new WeakSet<IncomingMessage>();

/** Whether this request renders a page for the page cache (which keeps it whole). */
export function rendersForPageCache(req: IncomingMessage): boolean {
  return renderingForCache.has(req);
}

/** How the page cache answered a response (X-Cache: HIT, MISS, STALE...), for the metrics; undefined when it did not. */
export function cacheResultOf(res: ServerResponse): string | undefined {
  if ((res as ServerResponse & { [FRESH_HIT]?: true })[FRESH_HIT]) return "HIT";
  const value = res.getHeader("x-cache");
  return typeof value === "string" ? value : undefined;
}

/** The cache key and whether the request may be served from the cache at all. */
function cacheable(method: string | undefined, url: string, cookie: string | undefined): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const path = url.split("?", 1)[0] ?? "";
  if (PRIVATE_PREFIXES.some((p) => path.startsWith(p))) return false;
  // A signed-in editor may see more than the public; their pages are neither cached nor served from cache.
  return !SESSION_COOKIE.test(cookie ?? "");
}

function etagMatches(ifNoneMatch: string | undefined, entry: Entry): Variant | undefined {
  if (!ifNoneMatch) return undefined;
  const tags = ifNoneMatch.split(",").map((tag) => tag.trim());
  return Object.values(entry.variants).find((variant) => variant && tags.includes(variant.etag));
}

/**
 * An in-process micro-cache for anonymous public pages and feeds (decision 004), with ETags and
 * conditional GET. A page is kept as identity bytes and compressed in the encoding of the reader who
 * rendered it; another encoding (br, gzip) is made once, when a reader first asks for it. Each has its
 * own ETag (Vary: Accept-Encoding). `serveHit` answers a fresh entry from
 * memory straight from the node HTTP handler, before any routing or React Router, with no file-system
 * call and no per-request compression. An entry is fresh for `ttlMs`, so every process shows a
 * change within seconds. Only one request renders a given URL at a time: while it does, others wait
 * for its result (nothing cached yet) or get the previous version (at most `staleMs` old). While
 * pages fail to render (a database outage), the last good version is served for `staleIfErrorMs`:
 * the newer of this process's and the shared copy on disk (`copies`), which every web process writes
 * after a good render and reads when a render fails. `clear()` drops everything in memory at once,
 * for the process that made an editorial change (or missed notices of one); the shared copies stay,
 * as they are served only when a page cannot be rendered. `now` is the clock ages are measured by
 * (tests pass their own).
 */
export function createPublicCache(
  options: {
    ttlMs?: number;
    staleMs?: number;
    staleIfErrorMs?: number;
    maxEntries?: number;
    /** The most bytes of pages kept (every variant counted); the least recently used go first. */
    maxBytes?: number;
    now?: Clock;
    /**
     * A page that failed to render with no good version kept: when the database is down, this page
     * is answered instead (503, Retry-After), not the crash page.
     */
    maintenance?: { isDatabaseDown: () => Promise<boolean>; html: Buffer; retryAfterSeconds: number };
    /** Headers every answer from `serveHit` carries besides the page's own (the security headers). */
    baseHeaders?: [string, string][];
    /**
     * Where the last good copies every web process shares are kept (server/http/page-copies.ts): a
     * directory, the most bytes it may hold, and the build's version (another build's copies are not
     * served). None: this process's memory alone.
     */
    copies?: { dir: string; maxBytes?: number; version?: string };
    /** Told when a shared copy could not be written or read (the page is answered as without it). */
    onCopyError?: (error: unknown, action: "keep" | "read") => void;
  } = {},
) {
  const baseHeaders = options.baseHeaders ?? [];
  const ttlMs = options.ttlMs ?? 2_000;
  const staleMs = Math.max(options.staleMs ?? 30_000, ttlMs);
  // While pages fail to render (the database is unreachable), the last good version is served this long.
  const staleIfErrorMs = Math.max(options.staleIfErrorMs ?? 10 * 60_000, staleMs);
  const now = options.now ?? systemClock;
  const copies = options.copies ? createPageCopies({ ...options.copies, maxAgeMs: staleIfErrorMs, now }) : null;
  const copyFailed = options.onCopyError ?? (() => {});
  // Ages are checked here against `now`, not by the LRU's own timer, so one clock decides.
  // Bounded by bytes as well as by count: a thousand 50 KB pages with their compressed forms would be
  // over 60 MB, a fifth of what a web process may hold.
  const cache = new LRUCache<string, Entry>({
    max: options.maxEntries ?? 1_000,
    maxSize: options.maxBytes ?? DEFAULT_MAX_BYTES,
    sizeCalculation: (entry) => ENTRY_OVERHEAD_BYTES + Object.values(entry.variants).reduce((bytes, variant) => bytes + (variant?.body.length ?? 0), 0),
  });
  /** The entry kept for `key` if it is at most `maxAge` old. */
  const lookup = (key: string, maxAge = staleMs) => {
    const entry = cache.get(key);
    if (entry && now() - entry.storedAt >= staleIfErrorMs) {
      cache.delete(key);
      return undefined;
    }
    return entry && now() - entry.storedAt < maxAge ? entry : undefined;
  };
  const rendering = new Map<string, Promise<Entry | null>>();
  // Bumped by clear(): a render begun before a change is neither stored nor joined by later requests.
  let generation = 0;

  // Encodings being made for a kept page, so that readers asking at once start it once.
  const making = new WeakMap<Entry, Set<Encoding>>();

  /**
   * The encoding a reader gets: the one it prefers when the page is kept in it; else the best of those
   * kept, while the one it prefers is made for the readers after it (a page is kept at first only in
   * the encoding of the reader who rendered it: browsers all take br, so gzip is seldom wanted).
   */
  function encodingFor(req: IncomingMessage, entry: Entry): Encoding {
    const wanted = chooseEncoding(req.headers["accept-encoding"], ALL_ENCODINGS);
    if (wanted === "identity" || entry.variants[wanted]) return wanted;
    const key = req.url ?? "/";
    const underway = making.get(entry) ?? new Set();
    // Only for a page kept in memory: a shared copy read while pages fail to render is read afresh each time.
    if (!underway.has(wanted) && cache.peek(key) === entry) {
      underway.add(wanted);
      making.set(entry, underway);
      void addEncoding(entry, wanted).then(
        (added) => {
          // Counted again at its new size: the cache counts an entry's size when it is set.
          if (added && cache.peek(key) === entry) {
            cache.delete(key);
            cache.set(key, entry);
          }
        },
        () => {},
      );
    }
    return chooseEncoding(req.headers["accept-encoding"], entry.variants);
  }

  /** The header lines of a fresh hit (or its 304) on one variant, as one flat list for writeHead. */
  function hitHeaders(entry: Entry, encoding: Encoding | null, variant: Variant): string[] {
    const lines: string[] = [];
    for (const [name, value] of baseHeaders) lines.push(name, value);
    for (const [name, value] of entry.headers) {
      // A 304 leaves the reader's copy as it is, with the policy whose nonce it carries.
      if (encoding === null && name === "content-security-policy") continue;
      if (Array.isArray(value)) for (const one of value) lines.push(name, one);
      else lines.push(name, value);
    }
    if (!entry.headers.some(([name]) => name === "cache-control")) lines.push("Cache-Control", PUBLIC_CACHE_CONTROL);
    lines.push("Vary", "Accept-Encoding", "X-Cache", "HIT", "ETag", variant.etag);
    if (encoding === null) return lines;
    if (encoding !== "identity") lines.push("Content-Encoding", encoding);
    lines.push("Content-Length", String(variant.body.length));
    return lines;
  }

  /** A fresh hit, every header written at once from lists made on the first hit (no setHeader per request). */
  function sendHit(req: IncomingMessage, res: ServerResponse, entry: Entry) {
    (res as ServerResponse & { [FRESH_HIT]?: true })[FRESH_HIT] = true;
    const matched = entry.status === 200 ? etagMatches(req.headers["if-none-match"], entry) : undefined;
    if (matched) {
      matched.notModified ??= hitHeaders(entry, null, matched);
      res.writeHead(304, matched.notModified);
      res.end();
      return;
    }
    const encoding = encodingFor(req, entry);
    const variant = entry.variants[encoding]!;
    variant.hit ??= hitHeaders(entry, encoding, variant);
    res.writeHead(entry.status, variant.hit);
    res.end(req.method === "HEAD" ? undefined : variant.body);
  }

  function send(req: IncomingMessage, res: ServerResponse, entry: Entry, how: "HIT" | "MISS" | "STALE" | "STALE-IF-ERROR") {
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", PUBLIC_CACHE_CONTROL);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("X-Cache", how);
    const matched = entry.status === 200 ? etagMatches(req.headers["if-none-match"], entry) : undefined;
    if (matched) {
      res.removeHeader("Content-Security-Policy");
      res.setHeader("ETag", matched.etag);
      res.statusCode = 304;
      res.end();
      return;
    }
    const encoding = encodingFor(req, entry);
    const variant = entry.variants[encoding]!;
    res.setHeader("ETag", variant.etag);
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", String(variant.body.length));
    res.statusCode = entry.status;
    res.end(req.method === "HEAD" ? undefined : variant.body);
  }

  /** Answers with the maintenance page when the database is down; false when it is up (or that cannot be told). */
  async function answeredWithMaintenance(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const { maintenance } = options;
    if (!maintenance || !(await maintenance.isDatabaseDown().catch(() => false))) return false;
    res.statusCode = 503;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Retry-After", String(maintenance.retryAfterSeconds));
    res.setHeader("Content-Security-Policy", MAINTENANCE_CSP);
    res.setHeader("Content-Length", String(maintenance.html.length));
    res.setHeader("X-Cache", "MAINTENANCE");
    res.end(req.method === "HEAD" ? undefined : maintenance.html);
    return true;
  }

  /**
   * This request renders the page for everyone asking for it meanwhile: whole (`rendersForPageCache`),
   * kept when it may be, and answered from what was kept. A failed render is answered by the last
   * good version, or the maintenance page while the database is down, or else as it is. `settle`
   * tells the requests waiting for it what was kept (null: nothing, they render for themselves).
   */
  async function renderForCache(key: string, req: IncomingMessage, res: ServerResponse, page: PageSource, settle: (entry: Entry | null) => void) {
    const begun = generation;
    renderingForCache.add(req);
    const failed = async (): Promise<boolean> => {
      const lastGood = await lastGoodVersion(key);
      settle(lastGood ?? null);
      if (lastGood) send(req, res, lastGood, "STALE-IF-ERROR");
      return lastGood !== undefined || (await answeredWithMaintenance(req, res));
    };
    let response: Response;
    try {
      response = await page.render();
    } catch (error) {
      if (await failed()) return;
      throw error;
    }
    const body = Buffer.from(await response.arrayBuffer());
    // The page failed to render (the database is down, say): the last good version, if there is one.
    if (response.status >= 500) {
      if (!(await failed())) await page.pass(withBody(response, body));
      return;
    }
    const canStore = CACHEABLE_STATUS.has(response.status) && !response.headers.has("set-cookie") && req.method === "GET" && !response.headers.has("content-encoding");
    const wanted = chooseEncoding(req.headers["accept-encoding"], ALL_ENCODINGS);
    const made = canStore ? makeEntry(response.status, response.headers, body, now(), wanted === "identity" ? [] : [wanted]) : null;
    const entry = made ? await made.catch(() => null) : null;
    if (!entry) {
      settle(null);
      return page.pass(withBody(response, body));
    }
    const current = begun === generation;
    if (current) cache.set(key, entry);
    settle(entry);
    send(req, res, entry, "MISS");
    // Written once the answer is on its way (nothing waits for it), for every web process to fall back on.
    if (current && copies) void copies.keep(key, entry).catch((error: unknown) => copyFailed(error, "keep"));
  }

  /** The newest good version of a page at most `staleIfErrorMs` old: this process's, or the shared copy. */
  async function lastGoodVersion(key: string): Promise<Entry | undefined> {
    const own = lookup(key, staleIfErrorMs);
    const shared = copies ? await copies.read(key).catch((error: unknown) => void copyFailed(error, "read")) : undefined;
    return shared && (!own || shared.storedAt > own.storedAt) ? shared : own;
  }

  /**
   * Answers a request `serveHit` did not: from the cache, from the render another request is making,
   * or by rendering it here (`page.render`) and keeping the result. What may not be cached (errors,
   * cookies, posts, admin pages, signed-in editors) goes out through `page.pass` as rendered.
   */
  async function respond(req: IncomingMessage, res: ServerResponse, page: PageSource): Promise<void> {
    const key = req.url ?? "/";
    if (!cacheable(req.method, key, req.headers.cookie)) return page.pass(await page.render());
    const entry = lookup(key);
    if (entry && now() - entry.storedAt < ttlMs) return send(req, res, entry, "HIT");

    const inFlight = rendering.get(key);
    if (inFlight) {
      if (entry) return send(req, res, entry, "STALE");
      const rendered = await inFlight;
      return rendered ? send(req, res, rendered, "HIT") : page.pass(await page.render());
    }

    let settle: (entry: Entry | null) => void = () => {};
    const work = new Promise<Entry | null>((resolve) => (settle = resolve));
    rendering.set(key, work);
    try {
      await renderForCache(key, req, res, page, settle);
    } finally {
      // A request that fails before answering must not leave others waiting.
      settle(null);
      if (rendering.get(key) === work) rendering.delete(key);
    }
  }

  return {
    /**
     * Answers a request from memory when a fresh entry is kept for it, or its previous version while
     * another request renders it again (200, or 304 for a matching If-None-Match), with `baseHeaders`
     * besides the page's own: true when it answered, false when the request must go on to be routed.
     */
    serveHit(req: IncomingMessage, res: ServerResponse): boolean {
      const url = req.url ?? "/";
      if (!cacheable(req.method, url, req.headers.cookie)) return false;
      const entry = cache.get(url);
      if (!entry) return false;
      const age = now() - entry.storedAt;
      if (age < ttlMs) {
        sendHit(req, res, entry);
        return true;
      }
      // Expired, and another request is rendering it again: the previous version, as the middleware would.
      if (age < staleMs && rendering.has(url)) {
        for (const [name, value] of baseHeaders) res.setHeader(name, value);
        send(req, res, entry, "STALE");
        return true;
      }
      return false;
    },
    respond,
    /** How long a page stays fresh. */
    ttlMs,
    /** The shared copies, if kept (tests look at them). */
    copies,
    clear: () => {
      generation += 1;
      cache.clear();
      rendering.clear();
    },
  };
}
export type PublicCache = ReturnType<typeof createPublicCache>;

/** Where a page the cache does not hold comes from, and how an answer it will not keep is sent. */
export type PageSource = {
  /** Renders the page (React Router's answer to this request). */
  render: () => Promise<Response>;
  /** Sends an answer as it is (compressed as it streams, if it may be). */
  pass: (response: Response) => Promise<void>;
};

/** A rendered answer again, its body read already (a status that has none gets none). */
function withBody(response: Response, body: Buffer): Response {
  const empty = [101, 204, 205, 304].includes(response.status);
  return new Response(empty ? null : new Uint8Array(body), { status: response.status, statusText: response.statusText, headers: response.headers });
}
