import type { IncomingMessage, ServerResponse } from "node:http";
import { OPML_MAX_BYTES } from "~/domain/sources/opml";
import { pathOf, sendJson } from "./node-handler";

/**
 * The most bytes a request body may have, by where it goes. Auth forms are a few fields; the back
 * office's largest body is the OPML import: a file at the import's own limit (so its own message
 * names that limit) in a multipart form with room for its other fields.
 */
export const BODY_LIMITS = {
  auth: 64 * 1024,
  admin: OPML_MAX_BYTES + 256 * 1024,
  other: 64 * 1024,
} as const;

export type BodyLimits = { auth: number; admin: number; other: number };

/** Which limit a request path falls under. */
export function bodyLimitFor(pathname: string, limits: BodyLimits = BODY_LIMITS): number {
  if (pathname === "/api/auth" || pathname.startsWith("/api/auth/")) return limits.auth;
  if (pathname === "/admin" || pathname.startsWith("/admin/") || pathname.startsWith("/admin.")) return limits.admin;
  return limits.other;
}

/** A byte count as people read it: "64 KB", "2.3 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MB`;
}

/** What a client reads when its body is over the limit. */
export function tooLargeMessage(limit: number): string {
  return `The request is too large: this address accepts at most ${formatBytes(limit)}.`;
}

/** How long the rest of a refused body is read (and dropped) after the 413, before its connection is closed. */
export const REFUSED_BODY_LINGER_MS = 1_000;

const discard = () => {};
const bodies = new WeakMap<IncomingMessage, Buffer>();

/** The body read by `readRequestBody`, or undefined when the request had none. */
export function bufferedBody(req: IncomingMessage): Buffer | undefined {
  return bodies.get(req);
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

/**
 * Reads a request's body before anything else does, and at most its path's limit of it: a declared
 * length over the limit is refused before a byte is read, and a body that grows past it is refused
 * the moment it does. Refusals answer 413 with the limit (JSON with `message` and `error`, the keys
 * the auth and back-office clients read); the rest is never held in memory, and a sender that does
 * not stop is cut off. Resolves true once the body is read (or there is none): the handlers after it
 * read it through `bufferedBody`. Resolves false when it refused it, having answered.
 */
export function readRequestBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits = BODY_LIMITS): Promise<boolean> {
  if (!hasBody(req)) return Promise.resolve(true);
  const limit = bodyLimitFor(pathOf(req), limits);
  const refuse = () => {
    const message = tooLargeMessage(limit);
    // What is still in flight is read and dropped, never held, for a moment after the answer: a
    // connection closed while the client still sends could lose the answer on its way. Then it is closed.
    req.on("data", discard);
    res.once("finish", () => {
      if (req.readableEnded) return;
      const timer = setTimeout(() => req.socket.destroy(), REFUSED_BODY_LINGER_MS);
      timer.unref();
      req.once("end", () => clearTimeout(timer));
    });
    sendJson(req, res, 413, { message, error: message, code: "BODY_TOO_LARGE" }, { "Cache-Control": "no-store" });
  };
  if (Number(req.headers["content-length"]) > limit) {
    refuse();
    return Promise.resolve(false);
  }

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        settled = true;
        req.off("data", onData);
        chunks.length = 0;
        refuse();
        resolve(false);
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => {
      if (settled) return;
      settled = true;
      bodies.set(req, Buffer.concat(chunks, size));
      resolve(true);
    });
    req.once("error", (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
  });
}
