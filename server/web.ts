import { existsSync, readFileSync } from "node:fs";
import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import compression from "compression";
import express, { type RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import type { Registry } from "prom-client";
import type { ServerBuild } from "react-router";
import type { Database } from "~/db/client";
import { createRepos } from "~/db/repos";
import { listenForPublicPageChanges, notifyPublicPagesChanged } from "~/db/change-notices";
import { toNodeHandler } from "better-auth/node";
import { createGuardedClient, userAgentFor } from "~/integrations/http/guarded-client";
import type { HttpClient } from "~/integrations/http/types";
import { createImageStore, type ImageStore } from "~/integrations/images/image-store";
import { createShareCards } from "~/integrations/share-card/share-card";
import type { JobsApi } from "~/jobs/types";
import type { GraphClient } from "~/integrations/facebook/graph-client";
import { parseFeed } from "~/domain/ingestion/feed/parse-feed";
import { getStoryCard } from "~/domain/public/public-site";
import { recordMeasuredImageSize } from "~/domain/images/image-size";
import { errorMessage } from "~/lib/error-message";
import { createRateLimiter } from "~/lib/rate-limit";
import { publicConfig, type AppContext } from "./app-context";
import { CLIENT_IP_HEADER, createAuth } from "./auth";
import { databaseIsDown, MAINTENANCE_RETRY_SECONDS, maintenanceHtml } from "./maintenance";
import { BODY_LIMITS, bufferedBody, limitRequestBodies, type BodyLimits } from "./body-limit";
import { createImageRoute, siteImageReader } from "./image-route";
import { createMailer } from "./mail";
import { publicCategories } from "~/domain/public/public-categories";
import { createMetrics } from "./metrics";
import { createPublicCache, rendersForPageCache } from "./public-cache";
import { applySecurityHeaders, commonSecurityHeaders } from "./security-headers";
import { loadStaticAssets } from "./static-assets";
import { pendingMigrations } from "~/db/migrate";
import { urlForLog } from "./request-log";
import { routerHandler } from "./router-handler";
import { PROJECT_ROOT } from "~/lib/project-root";
import type { Config } from "./config";
import type { Logger } from "./logger";

const BUILD_DIR = path.join(PROJECT_ROOT, "build");
/** The product logo: the placeholder for a story picture that cannot be had (spec section 3), and on share cards. */
const PUBLIC_DIR = path.join(PROJECT_ROOT, "public");
const LOGO_FILE = path.join(PUBLIC_DIR, "logo.svg");

/** Loads the production build of the React Router app; says how to make one when it is missing. */
export async function loadServerBuild(): Promise<ServerBuild> {
  const entry = path.join(BUILD_DIR, "server", "index.js");
  if (!existsSync(entry)) {
    throw new Error(`No production build at ${path.relative(process.cwd(), entry)}: run "npm run build" first`);
  }
  return (await import(pathToFileURL(entry).href)) as ServerBuild;
}

/**
 * Public search per client address, in each process's memory (a second process, or a restart,
 * starts afresh). Only searches that reach the database count: the page cache answers repeats.
 */
export const SEARCH_RATE_LIMITS = {
  search: { burst: 30, perMinute: 60 },
  suggestions: { burst: 60, perMinute: 120 },
} as const;

// A web process started without a job runner (benchmarks) cannot start background work.
const noJobRunner: JobsApi = {
  enqueue: () => Promise.reject(new Error("this process runs no job runner")),
  get: () => Promise.resolve(null),
  latestUnfinished: () => Promise.resolve(null),
  cancel: () => Promise.resolve(false),
};

export type WebServer = {
  url: string;
  server: Server;
  /** This process's metrics (the cluster primary gathers every web process's). */
  metricsRegistry: Registry;
  /** What an editorial change calls: drops this process's cached public pages and tells the others. */
  invalidatePublicPages(): void;
  close(): Promise<void>;
};

/** The web app: request logging, static files, a health check, and the React Router handler. */
export function createWebApp(options: {
  config: Config;
  database: Database;
  logger: Logger;
  /** The React Router build, or a function returning it (for the dev server). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Extra middleware before the app (the dev server's Vite). */
  before?: RequestHandler[];
  /** The guarded HTTP client; one is made from the config when none is given. */
  http?: HttpClient;
  /** Background jobs; without a runner, starting one is refused. */
  jobs?: JobsApi;
  /** The time-limited feed parser (serve passes its pool); without one, feeds are parsed in-process. */
  parseFeed?: AppContext["parseFeed"];
  /** The store behind /img; one is made from the config when none is given. */
  images?: ImageStore;
  /** The Facebook Page's Graph API client (serve passes the one its worker shares); none when not configured. */
  facebook?: GraphClient | null;
  /** The demo (`serve --demo`): without SMTP, verification links are also written to the log. */
  demo?: boolean;
  /** The most bytes a request body may have, by where it goes (tests pass smaller ones). */
  bodyLimits?: BodyLimits;
  /** Where the build's hashed assets are (tests pass their own). */
  assetsDir?: string;
  /** The search limits, when shared by several web processes (the cluster primary keeps them); this process's own by default. */
  rateLimits?: AppContext["rateLimits"];
  /** The /metrics exposition, when it covers several web processes (the cluster primary gathers it); this process's own by default. */
  renderMetrics?: () => Promise<{ contentType: string; body: string }>;
  /** How long a rendered public page is answered from memory (decision 004; tests lengthen it). */
  pageCacheTtlMs?: number;
}) {
  const { config, database, logger } = options;
  const http = options.http ?? createGuardedClient({ userAgent: userAgentFor(config.siteUrl), allowHosts: config.fetchAllowHosts });
  // A public page that fails while the database is down, with no good copy kept, is the maintenance page.
  const maintenance = { isDatabaseDown: () => databaseIsDown(database), html: maintenanceHtml(), retryAfterSeconds: MAINTENANCE_RETRY_SECONDS };
  const https = config.siteUrl.startsWith("https://");
  const publicCache = createPublicCache({ maintenance, ttlMs: options.pageCacheTtlMs, baseHeaders: commonSecurityHeaders({ https }) });
  // Names this app's own change notices, which its listener skips (it has cleared its cache already).
  const origin = randomUUID();
  const auth = createAuth({
    db: database.db,
    secret: config.authSecret,
    siteUrl: config.siteUrl,
    trustedOrigins: config.trustedOrigins,
    mailer: createMailer(config, logger),
    logger,
    logVerificationLinks: options.demo === true && !config.smtpUrl,
  });
  const repos = createRepos(database.db);
  const categoriesForPages = publicCategories(repos.categories, { freshMs: publicCache.ttlMs });
  const clearPublicPages = () => {
    publicCache.clear();
    categoriesForPages.forget();
  };
  const metrics = createMetrics({ database, repo: repos.metrics });
  const logoSvg = readFileSync(LOGO_FILE);
  const images =
    options.images ??
    createImageStore({
      dir: config.imageDir,
      maxBytes: config.imageCacheMb * 1024 * 1024,
      http,
      logoSvg,
      readSiteImage: siteImageReader(PUBLIC_DIR),
      onOriginalSize: (measured) =>
        void recordMeasuredImageSize({ repos }, measured).catch((error: unknown) =>
          logger.warn({ storyId: measured.storyId, err: errorMessage(error) }, "could not keep the size of a story's picture"),
        ),
      onFailure: ({ url, storyId, code, message }) => logger.warn({ storyId, url, code, err: message }, "story image unavailable; serving the logo"),
    });
  const rateLimits = options.rateLimits ?? { search: createRateLimiter(SEARCH_RATE_LIMITS.search), suggestions: createRateLimiter(SEARCH_RATE_LIMITS.suggestions) };
  const renderMetrics = options.renderMetrics ?? (() => metrics.render());
  const invalidatePublicPages = () => {
    clearPublicPages();
    // Other web processes on the database drop theirs when told (startWebServer listens).
    if (database.kind === "postgres") {
      notifyPublicPagesChanged(database, origin).catch((error: unknown) =>
        logger.error({ err: errorMessage(error) }, "could not tell the other web processes that public pages changed; theirs expire within seconds"),
      );
    }
  };
  const context: Omit<AppContext, "clientAddress"> = {
    repos,
    publicRepos: { ...repos, categories: { ...repos.categories, listAll: categoriesForPages.listAll, findBySlug: categoriesForPages.findBySlug } },
    getSessionUser: async (headers) => {
      const session = await auth.api.getSession({ headers });
      return session ? { id: session.user.id, email: session.user.email, name: session.user.name, emailVerified: session.user.emailVerified } : null;
    },
    config: publicConfig(config),
    trustedOrigins: config.trustedOrigins,
    rateLimits,
    logger,
    http,
    jobs: options.jobs ?? noJobRunner,
    parseFeed: options.parseFeed ?? (async (input) => parseFeed(input)),
    facebook: options.facebook ?? null,
    invalidatePublicPages,
  };

  const app = express();
  app.disable("x-powered-by");
  // Forwarded headers count only from the proxies TRUST_PROXY names (none by default).
  app.set("trust proxy", config.trustProxy);
  app.use(
    pinoHttp({
      logger,
      autoLogging: { ignore: (req) => req.url?.startsWith("/assets/") === true },
      // Story images come by the dozen per page: only their errors are logged (an unavailable picture is logged by the store).
      customLogLevel: (req, res, error) => (error || res.statusCode >= 500 ? "error" : req.url?.startsWith("/img/") ? "silent" : "info"),
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: urlForLog(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  // Every body is read here, within its limit, before anything else sees it.
  app.use(limitRequestBodies(options.bodyLimits ?? BODY_LIMITS));
  const authHandler = toNodeHandler(auth);
  app.all("/api/auth/{*rest}", (req, res) => {
    req.headers[CLIENT_IP_HEADER] = clientAddressOf(req);
    // The auth service takes a body already read as text.
    const body = bufferedBody(req);
    if (body) (req as { body?: unknown }).body = body.toString("utf8");
    return authHandler(req, res);
  });
  // Pictures are compressed already; they skip the compression middleware and the page cache.
  app.use(
    createImageRoute({
      store: images,
      findImage: (id) => repos.publicStories.imageOf(id),
      cards: createShareCards({ logoSvg }),
      findCard: (id) => getStoryCard(repos, id),
      siteUrl: config.siteUrl,
    }),
  );
  app.use(compression());
  for (const middleware of options.before ?? []) app.use(middleware);
  app.use("/assets", express.static(path.join(BUILD_DIR, "client", "assets"), { immutable: true, maxAge: "1y" }));
  app.use(express.static(path.join(BUILD_DIR, "client"), { maxAge: "1h", index: false }));

  app.get("/healthz", async (_req, res) => {
    try {
      await database.exec("SELECT 1");
      res.json({ ok: true, database: database.kind });
    } catch (error) {
      logger.error({ err: error }, "health check failed");
      res.status(503).json({ ok: false, reason: `The database is unreachable: ${errorMessage(error)}` });
    }
  });
  // Ready to take traffic: the database answers and every migration of this build is applied.
  app.get("/readyz", async (_req, res) => {
    try {
      const pending = await pendingMigrations(database);
      if (pending > 0) return void res.status(503).json({ ready: false, reason: `${pending} database migration(s) not applied yet` });
      res.json({ ready: true });
    } catch (error) {
      res.status(503).json({ ready: false, reason: `The database is unreachable: ${errorMessage(error)}` });
    }
  });
  // Closed unless METRICS_TOKEN is set (then it is the bearer token asked for); METRICS_PORT serves it apart.
  app.get("/metrics", async (req, res) => {
    if (!config.metrics.token || !bearerMatches(req.get("authorization"), config.metrics.token)) return void res.status(404).type("text").send("Not found");
    const { contentType, body } = await renderMetrics();
    res.set({ "Content-Type": contentType, "Cache-Control": "no-store" }).send(body);
  });

  app.use(publicCache.middleware);
  app.use(routerHandler({ build: options.build, siteUrl: config.siteUrl, getLoadContext: (req) => ({ ...context, clientAddress: clientAddressOf(req), wholePage: rendersForPageCache(req) }) }));

  // The production build's hashed assets, read once (absent in development, where Vite serves them).
  const assets = options.before ? null : loadStaticAssets(options.assetsDir ?? path.join(BUILD_DIR, "client", "assets"));
  /**
   * The whole server's request handler: every request is counted and timed; a hashed asset and a
   * page fresh in the page cache are answered from memory here, before Express and React Router
   * (no file-system call, no compression, no per-request log line); anything else goes to Express.
   */
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    // A hit writes its security headers with its own, at once, and is counted once it has.
    if (publicCache.serveHit(req, res)) return metrics.answeredFromCache(req, res, started);
    metrics.observe(req, res);
    applySecurityHeaders(req, res, { https });
    if (assets?.serve(req, res)) return;
    app(req, res);
  };
  return Object.assign(app, { nodeHandler: handle, metrics, renderMetrics, origin, invalidatePublicPages, clearPublicPages });
}

/** Compares a bearer token in constant time. */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// The socket's address, or the client a trusted proxy (TRUST_PROXY) forwarded for.
function clientAddressOf(req: express.Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/** Starts serving on the configured port; resolves once the server listens. */
export async function startWebServer(options: Parameters<typeof createWebApp>[0]): Promise<WebServer> {
  const app = createWebApp(options);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createServer(app.nodeHandler);
    s.once("error", reject);
    s.listen(options.config.port, options.config.host, () => resolve(s));
  });
  // METRICS_PORT: /metrics alone, on a port of its own (kept off the public one by the firewall).
  const metricsServer = options.config.metrics.port
    ? await new Promise<Server>((resolve, reject) => {
        const s = createServer((req, res) => {
          if ((req.url ?? "").split("?", 1)[0] !== "/metrics" || req.method !== "GET") {
            res.statusCode = 404;
            return void res.end("Not found");
          }
          void app.renderMetrics().then(
            ({ contentType, body }) => res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(body),
            (error: unknown) => res.writeHead(500, { "Content-Type": "text/plain" }).end(errorMessage(error)),
          );
        });
        s.once("error", reject);
        s.listen(options.config.metrics.port, options.config.host, () => resolve(s));
      })
    : null;
  // On PostgreSQL, pages another web process changed are dropped here too (decision 004).
  const { database, logger } = options;
  const changes =
    database.kind === "postgres"
      ? await listenForPublicPageChanges({
          connectionString: database.connectionString,
          origin: app.origin,
          onChange: app.clearPublicPages,
          onError: (error) => logger.warn({ err: errorMessage(error) }, "lost the database connection that tells of page changes; reconnecting"),
        }).catch(async (error: unknown) => {
          metricsServer?.close();
          await new Promise((resolve) => server.close(resolve));
          throw error;
        })
      : null;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.config.port;
  const url = `http://localhost:${port}`;
  return {
    url,
    server,
    metricsRegistry: app.metrics.registry,
    invalidatePublicPages: app.invalidatePublicPages,
    close: () =>
      new Promise((resolve) => {
        void changes?.close();
        metricsServer?.close();
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests still running get a moment to finish, then their connections are cut.
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}
