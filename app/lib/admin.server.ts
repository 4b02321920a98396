import { data, type AppLoadContext } from "react-router";
import { isAdmin } from "~/domain/users/is-admin";
import { isTrustedOrigin } from "~/lib/trusted-origin";

export type AdminUser = { id: string; email: string; name: string };

/**
 * Why a request was refused: 401 shows the sign-in screen, 403 'Access Denied', or for a change
 * sent from another address than SITE_URL, which address to use (`error` is what JSON callers show).
 */
export type GateRefusal =
  | { gate: "signed-out" }
  | { gate: "not-admin"; email: string }
  | { gate: "foreign-origin"; origin: string | null; siteOrigin: string; error: string };

/** What an editor reads when a change arrives from another address than the site's own. */
export function foreignOriginMessage(origin: string | null, siteOrigin: string): string {
  const opened = origin && origin !== "null" ? `This page was opened at ${origin}, but changes` : "Changes";
  return `${opened} are accepted only from the site's own address, ${siteOrigin}. Open ${siteOrigin}/admin and try again, or set SITE_URL to the address you use.`;
}

/**
 * The server-side control for everything under /admin: a signed-in user with the admin flag, and
 * for changes, a request from our own origin (CSRF): SITE_URL's, or with SITE_URL unset either
 * loopback spelling of the port. Throws a 401 or 403 response otherwise.
 */
export async function requireAdmin(args: { request: Request; context: AppLoadContext }): Promise<AdminUser> {
  const { request, context } = args;
  const user = await context.getSessionUser(request.headers);
  if (!user) throw data<GateRefusal>({ gate: "signed-out" }, { status: 401 });
  if (!(await isAdmin({ users: context.repos.users, logger: context.logger }, user.id))) {
    throw data<GateRefusal>({ gate: "not-admin", email: user.email }, { status: 403 });
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    const origin = request.headers.get("origin");
    const siteOrigin = new URL(context.config.siteUrl).origin;
    const trusted = context.trustedOrigins ?? [siteOrigin];
    if (!isTrustedOrigin(origin, trusted)) {
      context.logger.warn({ origin, path: new URL(request.url).pathname }, "admin change refused: foreign origin");
      throw data<GateRefusal>({ gate: "foreign-origin", origin, siteOrigin, error: foreignOriginMessage(origin, siteOrigin) }, { status: 403 });
    }
  }
  return { id: user.id, email: user.email, name: user.name };
}
