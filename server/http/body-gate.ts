import type { IncomingMessage, ServerResponse } from "node:http";
import { foreignOriginMessage } from "~/app/lib/admin.server";
import { isTrustedOrigin } from "~/lib/trusted-origin";
import { declaresBody, leaveBodyUnread } from "./body-limit";
import { pathOf, sendJson } from "./node-handler";

/**
 * The auth service's endpoints that take a body from someone not signed in (or whose session has
 * ended): signing in and up, signing out, asking for and using a password reset link, asking for a
 * verification mail, an OAuth provider's callback, and the session query (which answers null).
 * Every other endpoint that takes a body needs a session.
 */
export const OPEN_AUTH_PATHS = [
  "/api/auth/sign-in/",
  "/api/auth/sign-up/",
  "/api/auth/sign-out",
  "/api/auth/request-password-reset",
  "/api/auth/reset-password",
  "/api/auth/send-verification-email",
  "/api/auth/callback/",
  "/api/auth/get-session",
] as const;

/**
 * Which gate a request's body waits behind: the back office's (`admin`, answered by its own pages),
 * the API's (`api`, answered here in JSON), or none (public pages, the auth service's open endpoints).
 */
export function bodyGateFor(pathname: string): "admin" | "api" | null {
  if (pathname === "/admin" || pathname.startsWith("/admin/") || pathname.startsWith("/admin.")) return "admin";
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    const open = OPEN_AUTH_PATHS.some((path) => (path.endsWith("/") ? pathname.startsWith(path) : pathname === path || pathname.startsWith(`${path}/`)));
    return open ? null : "api";
  }
  return null;
}

/** Why a body is not read: a change from another origin (403), or no valid session (401). */
export type BodyRefusal = { status: 403; reason: "foreign-origin" } | { status: 401; reason: "signed-out" };

/**
 * Decides, before a byte of it is read, whether a body sent to the back office or the API is read
 * at all: it must come from one of the site's origins (the admin gate's rule, `isTrustedOrigin`) and
 * carry a valid session (`hasSession`, the session lookup: one database read, which the request's
 * own handlers reuse). Null when the body may be read.
 */
export async function refuseBodyBeforeReading(req: IncomingMessage, deps: { trustedOrigins: readonly string[]; hasSession: () => Promise<boolean> }): Promise<BodyRefusal | null> {
  if (!isTrustedOrigin(req.headers.origin, deps.trustedOrigins)) return { status: 403, reason: "foreign-origin" };
  if (!(await deps.hasSession())) return { status: 401, reason: "signed-out" };
  return null;
}

/** The JSON answer to an API request refused before its body: `message` and `error`, the keys the auth and back-office clients read. */
export function bodyRefusalAnswer(refusal: BodyRefusal, req: IncomingMessage, siteUrl: string): { message: string; error: string; code: string } {
  if (refusal.reason === "foreign-origin") {
    const message = foreignOriginMessage(req.headers.origin ?? null, new URL(siteUrl).origin);
    return { message, error: message, code: "FOREIGN_ORIGIN" };
  }
  const message = "Sign in first: your session has ended or you are not signed in.";
  return { message, error: message, code: "SIGNED_OUT" };
}

/**
 * The gate before a request's body: a body sent to the back office or the API (but the auth service's
 * open endpoints) is read only from one of the site's origins with a valid session. A refused one is
 * never read and its connection closes after the answer: the API's answer is JSON here; the back
 * office answers as its pages always have (the sign-in screen, 'Access Denied', the wrong-address
 * screen, or their JSON on a resource route), from the request without its body. True when the
 * request is answered already.
 */
export async function refusedBeforeBody(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { trustedOrigins: readonly string[]; siteUrl: string; hasSession: () => Promise<boolean> },
): Promise<boolean> {
  const gate = declaresBody(req) ? bodyGateFor(pathOf(req)) : null;
  if (!gate) return false;
  const refusal = await refuseBodyBeforeReading(req, deps).catch((error: unknown) => {
    // Without an answer from the session store, the body is not read either.
    leaveBodyUnread(req, res);
    throw error;
  });
  if (!refusal) return false;
  leaveBodyUnread(req, res);
  if (gate === "admin") return false;
  sendJson(req, res, refusal.status, bodyRefusalAnswer(refusal, req, deps.siteUrl), { "Cache-Control": "no-store" });
  return true;
}
