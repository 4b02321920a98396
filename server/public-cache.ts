import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { LRUCache } from "lru-cache";

type Entry = { status: number; headers: Record<string, string | string[]>; body: Buffer; etag: string };

/** Cache-Control of public pages: a CDN may keep them a few seconds, browsers revalidate by ETag. */
export const PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=5, stale-while-revalidate=10";

const PRIVATE_PREFIXES = ["/admin", "/api/auth", "/healthz", "/assets/"];
const CACHEABLE_STATUS = new Set([200, 404]);

/**
 * An in-process micro-cache for anonymous public pages and feeds, with ETags and conditional GET.
 * Entries live `ttlMs` (so every process shows a change within seconds); `clear()` drops them at
 * once, for the process that made the change.
 */
export function createPublicCache(options: { ttlMs?: number; maxEntries?: number } = {}) {
  const cache = new LRUCache<string, Entry>({ max: options.maxEntries ?? 1_000, ttl: options.ttlMs ?? 2_000 });

  function send(req: Request, res: Response, entry: Entry) {
    for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
    res.setHeader("ETag", entry.etag);
    if (!res.getHeader("Cache-Control")) res.setHeader("Cache-Control", PUBLIC_CACHE_CONTROL);
    if (req.headers["if-none-match"] === entry.etag && entry.status === 200) {
      res.status(304).end();
      return;
    }
    res.status(entry.status);
    res.setHeader("Content-Length", String(entry.body.length));
    res.end(req.method === "HEAD" ? undefined : entry.body);
  }

  function middleware(req: Request, res: Response, next: NextFunction) {
    if ((req.method !== "GET" && req.method !== "HEAD") || PRIVATE_PREFIXES.some((p) => req.path.startsWith(p))) {
      return next();
    }
    // A signed-in editor may see more than the public; their pages are neither cached nor served from cache.
    if (/(?:^|;\s*)[\w.-]*session_token=/.test(req.headers.cookie ?? "")) return next();

    const key = req.originalUrl;
    const hit = cache.get(key);
    if (hit) {
      res.setHeader("X-Cache", "HIT");
      return send(req, res, hit);
    }

    // Hold the response until it is complete, then store it and send it with its ETag.
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
      if (!cacheable) {
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
      };
      cache.set(key, entry);
      res.setHeader("X-Cache", "MISS");
      res.removeHeader("Content-Length");
      send(req, res, entry);
      done?.();
      return res;
    }) as Response["end"];
    next();
  }

  return { middleware, clear: () => cache.clear() };
}
export type PublicCache = ReturnType<typeof createPublicCache>;

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
}
