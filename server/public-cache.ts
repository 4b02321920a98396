import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";

type Entry = {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  etag: string;
  storedAt: number;
};

/**
 * Cache-Control of public pages: a CDN may keep them a few seconds, browsers revalidate by ETag, and
 * a CDN may show the last good page for ten minutes while the site answers errors (as this cache does).
 */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=5, stale-while-revalidate=10, stale-if-error=600";

const PRIVATE_PREFIXES = ["/admin", "/api/auth", "/healthz", "/assets/"];
const CACHEABLE_STATUS = new Set([200, 404]);

/**
 * An in-process micro-cache for anonymous public pages and feeds, with ETags and conditional GET.
 * An entry is fresh for `ttlMs`, so every process shows a change within seconds. Only one request
 * renders a given URL at a time: while it does, others wait for its result (nothing cached yet) or
 * get the previous version (at most `staleMs` old). `clear()` drops everything at once, for the
 * process that made an editorial change. `now` is the clock ages are measured by (tests pass their own).
 */
export function createPublicCache(
  options: { ttlMs?: number; staleMs?: number; staleIfErrorMs?: number; maxEntries?: number; now?: () => number } = {},
) {
  const ttlMs = options.ttlMs ?? 2_000;
  const staleMs = Math.max(options.staleMs ?? 30_000, ttlMs);
  // While pages fail to render (the database is unreachable), the last good version is served this long.
  const staleIfErrorMs = Math.max(options.staleIfErrorMs ?? 10 * 60_000, staleMs);
  const now = options.now ?? Date.now;
  // Ages are checked here against `now`, not by the LRU's own timer, so one clock decides.
  const cache = new LRUCache<string, Entry>({ max: options.maxEntries ?? 1_000 });
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

  function send(req: Request, res: Response, entry: Entry, how: "HIT" | "MISS" | "STALE" | "STALE-IF-ERROR") {
    for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
    res.setHeader("ETag", entry.etag);
    res.setHeader("X-Cache", how);
    if (!res.getHeader("Cache-Control")) res.setHeader("Cache-Control", PUBLIC_CACHE_CONTROL);
    if (req.headers["if-none-match"] === entry.etag && entry.status === 200) {
      res.status(304).end();
      return;
    }
    res.status(entry.status);
    res.setHeader("Content-Length", String(entry.body.length));
    res.end(req.method === "HEAD" ? undefined : entry.body);
  }

  // Let this request render the page, holding its response until complete; resolves with the entry stored.
  function render(key: string, req: Request, res: Response, next: NextFunction): Promise<Entry | null> {
    const begun = generation;
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      const write = res.write.bind(res);
      const end = res.end.bind(res);
      res.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
        if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, encoding));
        if (typeof encoding === "function") encoding();
        else if (typeof callback === "function") callback();
        return true;
      }) as Response["write"];
      res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
        res.write = write;
        res.end = end;
        if (chunk !== undefined && chunk !== null && typeof chunk !== "function") chunks.push(toBuffer(chunk, encoding));
        const body = Buffer.concat(chunks);
        const done = [chunk, encoding, callback].find((a) => typeof a === "function") as (() => void) | undefined;
        const cacheable = CACHEABLE_STATUS.has(res.statusCode) && !res.getHeader("Set-Cookie") && req.method === "GET";
        // The page failed to render (the database is down, say): the last good version, if there is one.
        const lastGood = res.statusCode >= 500 ? lookup(key, staleIfErrorMs) : undefined;
        if (lastGood) {
          for (const name of res.getHeaderNames()) res.removeHeader(name);
          resolve(lastGood);
          send(req, res, lastGood, "STALE-IF-ERROR");
          done?.();
          return res;
        }
        if (!cacheable) {
          resolve(null);
          end(body, done);
          return res;
        }
        const headers: Entry["headers"] = {};
        for (const name of ["content-type", "cache-control", "link", "vary", "x-robots-tag"]) {
          const value = res.getHeader(name);
          if (value !== undefined) headers[name] = Array.isArray(value) ? value : String(value);
        }
        const entry: Entry = {
          status: res.statusCode,
          headers,
          body,
          etag: `W/"${createHash("sha1").update(body).digest("base64url")}"`,
          storedAt: now(),
        };
        if (begun === generation) cache.set(key, entry);
        resolve(entry);
        res.removeHeader("Content-Length");
        send(req, res, entry, "MISS");
        done?.();
        return res;
      }) as Response["end"];
      // A request that fails before answering must not leave others waiting.
      res.once("close", () => resolve(null));
      next();
    });
  }

  async function middleware(req: Request, res: Response, next: NextFunction) {
    if ((req.method !== "GET" && req.method !== "HEAD") || PRIVATE_PREFIXES.some((p) => req.path.startsWith(p))) {
      return next();
    }
    // A signed-in editor may see more than the public; their pages are neither cached nor served from cache.
    if (/(?:^|;\s*)[\w.-]*session_token=/.test(req.headers.cookie ?? "")) return next();

    const key = req.originalUrl;
    const entry = lookup(key);
    if (entry && now() - entry.storedAt < ttlMs) return send(req, res, entry, "HIT");

    const inFlight = rendering.get(key);
    if (inFlight) {
      if (entry) return send(req, res, entry, "STALE");
      const rendered = await inFlight;
      return rendered ? send(req, res, rendered, "HIT") : next();
    }

    const work = render(key, req, res, next);
    rendering.set(key, work);
    try {
      await work;
    } finally {
      rendering.delete(key);
    }
  }

  return {
    middleware: (req: Request, res: Response, next: NextFunction) => void middleware(req, res, next).catch(next),
    clear: () => {
      generation += 1;
      cache.clear();
      rendering.clear();
    },
  };
}
export type PublicCache = ReturnType<typeof createPublicCache>;

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
}
