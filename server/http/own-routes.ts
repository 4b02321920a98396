import type { IncomingMessage, ServerResponse } from "node:http";
import { IMAGE_PATH } from "./image-route";
import type { NodeHandler } from "./node-handler";

type Match = { path: string } | { prefix: string } | { pattern: RegExp };
const GET_OR_HEAD = ["GET", "HEAD"] as const;

/**
 * Every address the server answers itself rather than through the pages. A request whose path and
 * method match a row is answered by that row's handler; any other request, another method of one of
 * these paths included (a POST to /healthz), goes on to the pages. HEAD is answered as GET without the
 * body by each handler. The handlers live with their code: the auth service in auth.ts, pictures in
 * image-route.ts, the operators' endpoints in operations/operations-routes.ts.
 */
export const OWN_ROUTES = [
  // better-auth: sign-in, sign-up, sessions, mail verification and password resets.
  { match: { prefix: "/api/auth/" }, methods: "any", handler: "auth" },
  // Story pictures and share cards: the image route's two path shapes (lib/story-image.ts names them).
  { match: { pattern: IMAGE_PATH }, methods: GET_OR_HEAD, handler: "image" },
  // For operators and their probes: health, readiness, and the metrics exposition (behind METRICS_TOKEN).
  { match: { path: "/healthz" }, methods: GET_OR_HEAD, handler: "healthz" },
  { match: { path: "/readyz" }, methods: GET_OR_HEAD, handler: "readyz" },
  { match: { path: "/metrics" }, methods: GET_OR_HEAD, handler: "metrics" },
] as const satisfies readonly { match: Match; methods: "any" | readonly string[]; handler: string }[];

export type OwnRouteName = (typeof OWN_ROUTES)[number]["handler"];

function matches(match: Match, pathname: string): boolean {
  if ("path" in match) return pathname === match.path;
  if ("prefix" in match) return pathname.startsWith(match.prefix);
  return match.pattern.test(pathname);
}

/** The handler of the row a request matches; null when the request is the pages'. */
export function ownRouteOf(method: string | undefined, pathname: string): OwnRouteName | null {
  for (const route of OWN_ROUTES) {
    if (!matches(route.match, pathname)) continue;
    if (route.methods === "any" || (route.methods as readonly string[]).includes(method ?? "")) return route.handler;
  }
  return null;
}

/**
 * The table with its handlers: answers a request of one of its addresses and says true, or says false
 * for the pages. A listener that serves only some of the addresses (METRICS_PORT) passes only theirs.
 */
export function createOwnRoutes(
  handlers: Partial<Record<OwnRouteName, NodeHandler>>,
): (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<boolean> {
  return async (req, res, pathname) => {
    const name = ownRouteOf(req.method, pathname);
    const handler = name === null ? undefined : handlers[name];
    if (!handler) return false;
    await handler(req, res);
    return true;
  };
}
