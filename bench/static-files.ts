import { readFile } from "node:fs/promises";
import path from "node:path";
import type { NodeMiddleware } from "~/server/http/node-handler";

// bench:images serves the variants' very bytes as plain static files beside the image route, to
// compare the two on the same server.

/** Where the bench's server also serves the variants' bytes as static files, for comparison. */
export const STATIC_PREFIX = "/bench-static";

/** The types of the files the bench writes there, by extension. */
const STATIC_TYPES: Record<string, string> = {
  ".avif": "image/avif",
  ".webp": "image/webp",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
};

/**
 * Serves the files of `dir` under STATIC_PREFIX, immutable for a year, each read from disk when asked
 * for: they are written after the server starts. A path out of `dir` is refused; anything else (a
 * missing file, another path or method) goes on to the next handler.
 */
export function serveStaticFiles(dir: string): NodeMiddleware {
  const base = path.resolve(dir);
  return (req, res, next) => {
    const pathname = (req.url ?? "/").split("?", 1)[0]!;
    if (!pathname.startsWith(`${STATIC_PREFIX}/`) || (req.method !== "GET" && req.method !== "HEAD")) return next();
    let name: string;
    try {
      name = decodeURIComponent(pathname.slice(STATIC_PREFIX.length + 1));
    } catch {
      return next();
    }
    const file = path.resolve(base, name);
    if (!file.startsWith(`${base}${path.sep}`)) return void res.writeHead(403, { "content-type": "text/plain; charset=utf-8" }).end("Forbidden");
    readFile(file).then(
      (bytes) => {
        res.writeHead(200, {
          "content-type": STATIC_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
          "content-length": bytes.length,
          "cache-control": "public, max-age=31536000, immutable",
        });
        res.end(req.method === "HEAD" ? undefined : bytes);
      },
      (error: NodeJS.ErrnoException) => (error.code === "ENOENT" || error.code === "EISDIR" || error.code === "ENOTDIR" ? next() : next(error)),
    );
  };
}
