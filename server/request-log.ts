import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "./logger";

// Links from mails carry secrets in their URLs (the verification and reset tokens): the request log
// keeps their shape, never their value.
const SECRET_PARAMS = new Set(["token"]);
const SECRET_PATHS = [/^(\/api\/auth\/reset-password\/)[^/?#]+/];

/** A request URL as the log may keep it: tokens in its query or its path replaced. */
export function urlForLog(url: string): string {
  const [rawPath, query] = splitOnce(url, "?");
  const path = SECRET_PATHS.reduce((p, pattern) => p.replace(pattern, "$1[redacted]"), rawPath);
  if (query === undefined) return path;
  const params = query.split("&").map((pair) => {
    const [name = ""] = splitOnce(pair, "=");
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, " "));
    } catch {
      // A malformed name is logged as sent.
    }
    return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
  });
  return `${path}?${params.join("&")}`;
}

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const at = value.indexOf(separator);
  return at === -1 ? [value, undefined] : [value.slice(0, at), value.slice(at + 1)];
}

/**
 * Writes one line per request once it is answered (or its client went away): method, URL as
 * `urlForLog` keeps it, status and milliseconds. Hashed assets and page-cache hits are answered before
 * this is called and are not logged; story images (they come by the dozen per page) only when they fail.
 */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? "/";
  const quietWhenFine = url.startsWith("/img/");
  const started = performance.now();
  const done = () => {
    res.off("finish", done);
    res.off("close", done);
    const statusCode = res.statusCode;
    const failed = statusCode >= 500;
    if (quietWhenFine && !failed) return;
    const line = { req: { method: req.method, url: urlForLog(url) }, res: { statusCode }, responseTime: Math.round(performance.now() - started) };
    const message = res.writableFinished ? "request completed" : "request aborted";
    if (failed) logger.error(line, message);
    else logger.info(line, message);
  };
  res.once("finish", done);
  res.once("close", done);
}
