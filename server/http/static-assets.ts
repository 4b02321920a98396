import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { chooseEncoding } from "./page-entry";

// The client build's files, served from memory by the node HTTP handler before any routing: each file
// and its build-time .br and .gz (scripts/precompress.mjs) are read once at start, so a request makes
// no file-system call and compresses nothing. The hashed assets (/assets/*) change their names with
// their contents, so they are cached for a year as immutable; the site's own files (the logo, the
// demo's pictures) for an hour.

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};
export const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** The site's own files, copied from public/ into the build: their names stay when they change. */
export const PUBLIC_FILE_CACHE_CONTROL = "public, max-age=3600";

type Asset = { type: string; etag: string; identity: Buffer; br?: Buffer; gzip?: Buffer };

/**
 * Loads every file under `dir` (the build's client/assets), with its precompressed forms, to be
 * served under `prefix` with `cacheControl`; `skip` leaves out top-level entries (another prefix's).
 */
export function loadStaticAssets(dir: string, options: { prefix?: string; cacheControl?: string; skip?: string[] } = {}) {
  const urlPrefix = options.prefix ?? "/assets/";
  const cacheControl = options.cacheControl ?? ASSET_CACHE_CONTROL;
  const assets = new Map<string, Asset>();
  const walk = (target: string, prefix: string) => {
    if (!existsSync(target)) return;
    for (const name of readdirSync(target)) {
      if (prefix === "" && options.skip?.includes(name)) continue;
      const full = path.join(target, name);
      if (statSync(full).isDirectory()) walk(full, `${prefix}${name}/`);
      else if (!/\.(br|gz)$/.test(name)) {
        const identity = readFileSync(full);
        const asset: Asset = {
          type: TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream",
          etag: `"${createHash("sha1").update(identity).digest("base64url").slice(0, 27)}"`,
          identity,
        };
        if (existsSync(`${full}.br`)) asset.br = readFileSync(`${full}.br`);
        if (existsSync(`${full}.gz`)) asset.gzip = readFileSync(`${full}.gz`);
        assets.set(`${urlPrefix}${prefix}${name}`, asset);
      }
    }
  };
  walk(dir, "");

  return {
    size: () => assets.size,
    /** Answers GET and HEAD of a known file; false for anything else (the request goes on to be routed). */
    serve(req: IncomingMessage, res: ServerResponse): boolean {
      const url = req.url ?? "";
      if (!url.startsWith(urlPrefix) || (req.method !== "GET" && req.method !== "HEAD")) return false;
      const asset = assets.get(url.split("?", 1)[0]!);
      if (!asset) return false;
      res.setHeader("Cache-Control", cacheControl);
      res.setHeader("Content-Type", asset.type);
      res.setHeader("ETag", asset.etag);
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("X-Content-Type-Options", "nosniff");
      if (req.headers["if-none-match"] === asset.etag) {
        res.statusCode = 304;
        res.end();
        return true;
      }
      const encoding = chooseEncoding(req.headers["accept-encoding"], asset);
      const body = encoding === "identity" ? asset.identity : asset[encoding]!;
      if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", String(body.length));
      res.statusCode = 200;
      res.end(req.method === "HEAD" ? undefined : body);
      return true;
    },
  };
}
export type StaticAssets = ReturnType<typeof loadStaticAssets>;
