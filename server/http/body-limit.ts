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

/** How long the rest of a refused body is read (and dropped) after the answer, before its connection is closed (`closeAfterAnswer`). */
export const REFUSED_BODY_LINGER_MS = 1_000;

/**
 * The most bytes of request bodies one web process holds at once, across all its requests: what
 * has arrived of the bodies being read, and the bodies read whose requests are not answered yet.
 * A body that would take it past this is refused with 503 and Retry-After (decision 023).
 */
export const BODY_BUDGET_BYTES = 32 * 1024 * 1024;
/** How long a client that was refused for the budget is asked to wait before it tries again. */
export const BODY_BUDGET_RETRY_SECONDS = 2;
/**
 * How long a body may take to arrive, whole: a sender slower than that (2.3 MB in a minute is
 * 40 KB/s) is answered 408 and cut off, and what it held of the budget is freed.
 */
export const BODY_READ_TIMEOUT_MS = 60_000;

/** The bytes of request bodies a process holds, against its budget. */
export type BodyBudget = {
  /** Takes `bytes` if they fit; false (taking nothing) when they would pass the budget. */
  take(bytes: number): boolean;
  release(bytes: number): void;
  readonly max: number;
  /** Held now. */
  readonly held: number;
  /** The most ever held at once. */
  readonly peak: number;
};

/** A budget of `max` bytes of request bodies. */
export function createBodyBudget(max: number = BODY_BUDGET_BYTES): BodyBudget {
  let held = 0;
  let peak = 0;
  return {
    take(bytes) {
      if (held + bytes > max) return false;
      held += bytes;
      peak = Math.max(peak, held);
      return true;
    },
    release(bytes) {
      held = Math.max(0, held - bytes);
    },
    max,
    get held() {
      return held;
    },
    get peak() {
      return peak;
    },
  };
}

const discard = () => {};
const bodies = new WeakMap<IncomingMessage, Buffer>();
const unread = new WeakSet<IncomingMessage>();
const holders = new WeakMap<IncomingMessage, () => void>();

/** The body read by `readRequestBody`, or undefined when the request had none. */
export function bufferedBody(req: IncomingMessage): Buffer | undefined {
  return bodies.get(req);
}

/**
 * Marks a request whose body is never to be read (it was refused before: server/http/body-gate.ts): its
 * handlers see a request without a body, and the answer closes the connection.
 */
export function leaveBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  unread.add(req);
  closeAfterAnswer(req, res);
}

/**
 * Closes a connection whose request body is not wanted, once it is answered: the answer says
 * `Connection: close` and is followed by the end of our side of the connection; what the client
 * still sends is dropped (never held) for a moment, then the socket is destroyed. Destroying it at
 * once, with bytes unread, would reset the connection and could lose the answer on its way to a
 * client that is still sending (RFC 9112, section 9.6, "tear-down").
 */
function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("Connection", "close");
  const socket = req.socket;
  // node:http ends a `Connection: close` answer's socket with destroySoon(): end it, and linger.
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), REFUSED_BODY_LINGER_MS).unref();
  };
}

/** Gives back to the budget what a request's body held: its server calls it once the request is answered. */
export function releaseBody(req: IncomingMessage): void {
  holders.get(req)?.();
  holders.delete(req);
}

/** Whether `leaveBodyUnread` marked this request. */
export function bodyLeftUnread(req: IncomingMessage): boolean {
  return unread.has(req);
}

/** Whether a request comes with a body (a declared length above zero, or one sent in chunks). */
export function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

/** How the bodies of a process are read: their limits by address, the process's budget, and how long one may take. */
export type BodyReading = { limits?: BodyLimits; budget?: BodyBudget; timeoutMs?: number };

/**
 * Reads a request's body before anything else does, and at most its path's limit of it: a declared
 * length over the limit is refused before a byte is read, and a body that grows past it is refused
 * the moment it does (413). Each chunk is counted against the process's budget as it arrives and
 * stays counted until the request is answered (`releaseBody`): a chunk that does not fit is refused with 503 and
 * Retry-After; a body that has not arrived whole within `timeoutMs` is refused with 408. Refusals
 * answer JSON with `message` and `error` (the keys the auth and back-office clients read) and
 * `code`; the rest is never held in memory, and a sender that does not stop is cut off. Resolves
 * true once the body is read (or there is none): the handlers after it read it through
 * `bufferedBody`. Resolves false when it refused it, having answered.
 */
export function readRequestBody(req: IncomingMessage, res: ServerResponse, reading: BodyReading = {}): Promise<boolean> {
  if (!declaresBody(req)) return Promise.resolve(true);
  const limit = bodyLimitFor(pathOf(req), reading.limits ?? BODY_LIMITS);
  const { budget } = reading;
  const refuse = (status: number, message: string, code: string, headers: Record<string, string> = {}) => {
    req.on("data", discard);
    closeAfterAnswer(req, res);
    sendJson(req, res, status, { message, error: message, code }, { "Cache-Control": "no-store", ...headers });
  };
  const tooLarge = () => refuse(413, tooLargeMessage(limit), "BODY_TOO_LARGE");
  if (Number(req.headers["content-length"]) > limit) {
    tooLarge();
    return Promise.resolve(false);
  }

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let held = 0;
    let settled = false;
    const release = () => {
      budget?.release(held);
      held = 0;
    };
    // What was taken of the budget is held until the request is answered (`releaseBody`).
    holders.set(req, release);
    const timer = setTimeout(
      () => stop(() => refuse(408, "The request body took too long to arrive. Please try again.", "BODY_TIMEOUT")),
      reading.timeoutMs ?? BODY_READ_TIMEOUT_MS,
    );
    timer.unref();
    const stop = (answer: () => void) => {
      settled = true;
      clearTimeout(timer);
      req.off("data", onData);
      chunks.length = 0;
      release();
      answer();
      resolve(false);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return stop(tooLarge);
      if (budget && !budget.take(chunk.length)) {
        return stop(() =>
          refuse(503, "The server is busy receiving other requests. Please try again in a moment.", "BODIES_BUDGET_FULL", { "Retry-After": String(BODY_BUDGET_RETRY_SECONDS) }),
        );
      }
      if (budget) held += chunk.length;
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      bodies.set(req, Buffer.concat(chunks, size));
      resolve(true);
    });
    req.once("error", (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      release();
      reject(error);
    });
  });
}
