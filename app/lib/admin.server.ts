import { data, type AppLoadContext } from "react-router";
import { isAdmin } from "~/domain/users/is-admin";

export type AdminUser = { id: string; email: string; name: string };

/** Why a request was refused: 401 shows the sign-in screen, 403 'Access Denied'. */
export type GateRefusal = { gate: "signed-out" } | { gate: "not-admin"; email: string };

/**
 * The server-side control for everything under /admin: a signed-in user with the admin flag, and
 * for changes, a request from our own origin (CSRF). Throws a 401 or 403 response otherwise.
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
    if (origin !== new URL(context.config.siteUrl).origin) {
      context.logger.warn({ origin, path: new URL(request.url).pathname }, "admin change refused: foreign origin");
      throw data({ gate: "csrf" }, { status: 403 });
    }
  }
  return { id: user.id, email: user.email, name: user.name };
}
