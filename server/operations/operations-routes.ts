import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Database } from "~/db/client";
import { pendingMigrations } from "~/db/migrate";
import { errorMessage } from "~/lib/error-message";
import type { Logger } from "../logger";
import { sendBody, sendJson } from "../http/node-handler";

/**
 * The operations routes, /healthz, /readyz and /metrics: the returned handler answers a GET or HEAD
 * of one of them and says true, or says false for any other request.
 */
export function createOperationsRoutes(options: {
  database: Database;
  logger: Logger;
  /** METRICS_TOKEN: /metrics is closed without it. */
  metricsToken: string | undefined;
  renderMetrics: () => Promise<{ contentType: string; body: string }>;
}): (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<boolean> {
  return async (req, res, pathname) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    // Healthy: the database answers and its schema is the one this build reads. The reason goes to the
    // log (and /readyz) for operators; the public answer names neither the database nor its error.
    if (pathname === "/healthz") {
      let problem: { reason: string; err?: unknown } | null = null;
      try {
        await options.database.exec("SELECT 1");
        const pending = await pendingMigrations(options.database);
        if (pending > 0) problem = { reason: `${pending} database migration(s) not applied` };
      } catch (error) {
        problem = { reason: "the database is unreachable", err: errorMessage(error) };
      }
      if (problem) {
        options.logger.error(problem, "health check failed");
        sendJson(req, res, 503, { ok: false });
      } else sendJson(req, res, 200, { ok: true });
      return true;
    }
    // Ready to take traffic: the database answers and every migration of this build is applied.
    if (pathname === "/readyz") {
      try {
        const pending = await pendingMigrations(options.database);
        if (pending > 0) sendJson(req, res, 503, { ready: false, reason: `${pending} database migration(s) not applied yet` });
        else sendJson(req, res, 200, { ready: true });
      } catch (error) {
        sendJson(req, res, 503, { ready: false, reason: `The database is unreachable: ${errorMessage(error)}` });
      }
      return true;
    }
    // Closed unless METRICS_TOKEN is set (then it is the bearer token asked for); METRICS_PORT serves it apart.
    if (pathname === "/metrics") {
      if (!options.metricsToken || !bearerMatches(req.headers.authorization, options.metricsToken)) {
        sendBody(req, res, 404, "Not found", { "Content-Type": "text/plain; charset=utf-8" });
      } else {
        const { contentType, body } = await options.renderMetrics();
        sendBody(req, res, 200, body, { "Content-Type": contentType, "Cache-Control": "no-store" });
      }
      return true;
    }
    return false;
  };
}

/** Compares a bearer token in constant time. */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
