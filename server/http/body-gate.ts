import type { IncomingMessage } from "node:http";
import { foreignOriginMessage } from "~/app/lib/admin.server";
import { isTrustedOrigin } from "~/lib/trusted-origin";

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
