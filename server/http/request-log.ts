import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../logger";
import type { Clock } from "~/lib/clock";

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

/** An answer slower than this is worth a person's look: its line is a warning whatever its status. */
export const SLOW_REQUEST_MS = 1_000;

/**
 * The level of a request's line. Answered requests are the bulk of any log, so a fine one is debug;
 * a 4xx is the client's doing (a scanner's 404s, an expired session's 401) and the refusals an
 * operator must see already have a warning of their own (sign-in limits, foreign origins), so it is
 * debug too. A 5xx is an error, and a slow answer (over SLOW_REQUEST_MS) a warning.
 */
export function requestLogLevel(statusCode: number, responseTimeMs: number): "error" | "warn" | "debug" {
  if (statusCode >= 500) return "error";
  if (responseTimeMs > SLOW_REQUEST_MS) return "warn";
  return "debug";
}

const MESSAGES = { error: "request failed", warn: "slow request", debug: "request completed" } as const;

/**
 * Writes one line per request once it is answered (or its client went away): method, URL as
 * `urlForLog` keeps it, status and milliseconds, at the level `requestLogLevel` gives. Hashed assets
 * and page-cache hits are answered before this is called and are not logged; story images (they come
 * by the dozen per page) only when they fail or are slow.
 */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse, now: Clock = () => performance.now()): void {
  const url = req.url ?? "/";
  const quietWhenFine = url.startsWith("/img/");
  const started = now();
  const done = () => {
    res.off("finish", done);
    res.off("close", done);
    const statusCode = res.statusCode;
    const responseTime = Math.round(now() - started);
    const level = requestLogLevel(statusCode, responseTime);
    if (quietWhenFine && level === "debug") return;
    const line = { req: { method: req.method, url: urlForLog(url) }, res: { statusCode }, responseTime };
    logger[level](line, res.writableFinished ? MESSAGES[level] : "request aborted");
  };
  res.once("finish", done);
  res.once("close", done);
}
