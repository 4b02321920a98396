import { requireAdmin } from "~/app/lib/admin.server";
import { failureResponse, json, methodNotAllowed } from "~/app/lib/json-route.server";
import { connectionStatus } from "~/domain/social/connection-status";
import type { Route } from "./+types/api.facebook";

/**
 * GET /admin/api/facebook : the Page connection's status (the Page, whether the token works, its
 * permissions and expiry, what that means for posting), or `{connected: false}` when
 * FACEBOOK_PAGE_ID and FACEBOOK_PAGE_TOKEN are not set. The token itself never leaves the server.
 */
export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const graph = args.context.facebook;
  if (!graph) return json({ connected: false });
  try {
    return json({ connected: true, status: await connectionStatus({ graph, repos: args.context.repos }) });
  } catch (error) {
    return failureResponse(error, args.context.logger, "Failed to check the Facebook connection");
  }
}

export async function action(args: Route.ActionArgs) {
  await requireAdmin(args);
  return methodNotAllowed("GET");
}
