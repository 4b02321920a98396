import { timingSafeEqual } from "node:crypto";
import type { Database } from "~/db/client";
import { pendingMigrations } from "~/db/migrate";
import { errorMessage } from "~/lib/error-message";
import type { Logger } from "../logger";
import { sendBody, sendJson, type NodeHandler } from "../http/node-handler";

/** The /metrics exposition: this process's, or every web process's when the cluster primary gathers it. */
export type RenderMetrics = () => Promise<{ contentType: string; body: string }>;

/**
 * The handlers of /healthz, /readyz and /metrics; the server's table of its own addresses
 * (http/own-routes.ts) says which requests reach them.
 */
export function createOperationsRoutes(options: {
  database: Database;
  logger: Logger;
  /** METRICS_TOKEN: /metrics is closed without it. */
  metricsToken: string | undefined;
  renderMetrics: RenderMetrics;
}): { healthz: NodeHandler; readyz: NodeHandler; metrics: NodeHandler } {
  return {
    // Healthy: the database answers and its schema is the one this build reads. The reason goes to the
    // log (and /readyz) for operators; the public answer names neither the database nor its error.
    healthz: async (req, res) => {
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
    },
    // Ready to take traffic: the database answers and every migration of this build is applied.
    readyz: async (req, res) => {
      try {
        const pending = await pendingMigrations(options.database);
        if (pending > 0) sendJson(req, res, 503, { ready: false, reason: `${pending} database migration(s) not applied yet` });
        else sendJson(req, res, 200, { ready: true });
      } catch (error) {
        sendJson(req, res, 503, { ready: false, reason: `The database is unreachable: ${errorMessage(error)}` });
      }
    },
    metrics: metricsRoute(options.renderMetrics, { token: options.metricsToken }),
  };
}

/**
 * /metrics. On the site's port it is closed unless METRICS_TOKEN is set, and then answers that bearer
 * token alone: anyone else gets the 404 of an address the site lacks. METRICS_PORT's listener serves it
 * `open`: that port is kept off the public network by the firewall.
 */
export function metricsRoute(renderMetrics: RenderMetrics, access: { token: string | undefined } | "open"): NodeHandler {
  return async (req, res) => {
    if (access !== "open" && (!access.token || !bearerMatches(req.headers.authorization, access.token))) {
      return sendBody(req, res, 404, "Not found", { "Content-Type": "text/plain; charset=utf-8" });
    }
    const { contentType, body } = await renderMetrics();
    sendBody(req, res, 200, body, { "Content-Type": contentType, "Cache-Control": "no-store" });
  };
}

/** Compares a bearer token in constant time. */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
