import { existsSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Registry } from "prom-client";
import type { ServerBuild } from "react-router";
import type { Database } from "~/db/client";
import { createRepos } from "~/db/repos";
import { listenForPublicPageChanges, notifyPublicPagesChanged } from "~/db/change-notices";
import { createGuardedClient, userAgentFor } from "~/integrations/http/guarded-client";
import type { HttpClient } from "~/integrations/http/types";
import { createPoliteness } from "../politeness";
import { createImageStore, type ImageStore } from "~/integrations/images/image-store";
import { createShareCards } from "~/integrations/share-card/share-card";
import type { JobsApi } from "~/jobs/types";
import type { GraphClient } from "~/integrations/facebook/graph-client";
import { parseFeed } from "~/domain/ingestion/feed/parse-feed";
import { getStoryCard } from "~/domain/public/public-site";
import { recordMeasuredImageSize } from "~/domain/images/image-size";
import { errorMessage } from "~/lib/error-message";
import { listenErrorOf } from "./listen-error";
import { onceEvery } from "~/lib/once-every";
import { createRateLimiter } from "~/lib/rate-limit";
import { publicConfig, type AppContext, type SessionUser } from "../app-context";
import { authRoute, createAuth } from "./auth";
import { databaseIsDown, MAINTENANCE_RETRY_SECONDS, maintenanceHtml } from "./maintenance";
import {
  BODY_LIMITS,
  bodyLeftUnread,
  createBodyBudget,
  readRequestBody,
  releaseBody,
  type BodyBudget,
  type BodyLimits,
} from "./body-limit";
import { refusedBeforeBody } from "./body-gate";
import { clientAddress, compileTrust } from "./client-address";
import { pathOf, sendBody, type NodeMiddleware } from "./node-handler";
import { createImageRoute, siteImageReader, sitePictureChecker } from "./image-route";
import { createMailer } from "../mail";
import { publicCategories } from "~/domain/public/public-categories";
import { createMetrics } from "../operations/metrics";
import { createPublicCache, rendersForPageCache } from "./public-cache";
import { applySecurityHeaders, commonSecurityHeaders } from "./security-headers";
import { loadStaticAssets, PUBLIC_FILE_CACHE_CONTROL } from "./static-assets";
import { createOperationsRoutes, metricsRoute } from "../operations/operations-routes";
import { createOwnRoutes } from "./own-routes";
import { logRequest, urlForLog } from "./request-log";
import { createPageRenderer, sendResponse } from "./router-handler";
import { PROJECT_ROOT } from "~/lib/project-root";
import { withAuthSecret, type Config } from "../config";
import type { Logger } from "../logger";

const BUILD_DIR = path.join(PROJECT_ROOT, "build");
/** The product logo: the placeholder for a story picture that cannot be had, and on share cards. */
const PUBLIC_DIR = path.join(PROJECT_ROOT, "public");
const LOGO_FILE = path.join(PUBLIC_DIR, "logo.svg");
/** Where, under DATA_DIR, the last good copies of public pages are kept for every web process. */
export const PAGE_COPIES_DIR = path.join("cache", "pages");

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

/** The web app: request logging, static files, a health check, and the React Router handler, on node:http alone. */
export function createWebApp(options: {
  config: Config;
  database: Database;
  logger: Logger;
  /** The React Router build, or a function returning it (for the dev server). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Extra middleware before the pages (the dev server's Vite), connect style. */
  before?: NodeMiddleware[];
  /** The guarded HTTP client; one is made from the config when none is given. */
  http?: HttpClient;
  /** The politeness gate over `http` for the back office's requests to sites (serve shares its worker's); built here when absent. */
  polite?: HttpClient;
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
  /** The bytes of request bodies this process holds at once, across all requests (BODY_BUDGET_BYTES by default; tests pass a smaller one). */
  bodyBudget?: BodyBudget;
  /** How long a request body may take to arrive, whole (BODY_READ_TIMEOUT_MS by default). */
  bodyReadTimeoutMs?: number;
  /** The build's client directory: its hashed assets under `assets/`, the site's own files beside them (tests pass their own). */
  clientDir?: string;
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
  // A disk that is full or read-only fails every write: said once a minute, not once a render.
  const copyWarnings = onceEvery(60_000);
  // The last good copies are files every web process on the machine reads (decision 004), per build.
  const buildVersion = typeof options.build === "function" ? "development" : options.build.assets.version;
  const publicCache = createPublicCache({
    maintenance,
    ttlMs: options.pageCacheTtlMs,
    baseHeaders: commonSecurityHeaders({ https }),
    copies: { dir: path.join(config.dataDir, PAGE_COPIES_DIR), version: buildVersion },
    onCopyError: (error, action) => copyWarnings.take(() => logger.warn({ err: errorMessage(error), action }, "a shared copy of a public page could not be kept or read (said at most once a minute); pages are answered without it")),
  });
  // Names this app's own change notices, which its listener skips (it has cleared its cache already).
  const origin = randomUUID();
  const auth = createAuth({
    db: database.db,
    secret: withAuthSecret(config).authSecret,
    siteUrl: config.siteUrl,
    trustedOrigins: config.trustedOrigins,
    mailer: createMailer(config, logger),
    logger,
    logVerificationLinks: options.demo === true && !config.smtpUrl,
  });
  const repos = createRepos(database.db);
  // The back office's requests to sites (Manual Scrape, watchlist titles, the RSS Validator) go through the
  // politeness gate; the public image route keeps the bare client (decision 021).
  const polite = options.polite ?? createPoliteness({ http, repos, logger, siteUrl: config.siteUrl });
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
    notifyPublicPagesChanged(database, origin).catch((error: unknown) =>
      logger.error({ err: errorMessage(error) }, "could not tell the other web processes that public pages changed; theirs expire within seconds"),
    );
  };
  const getSessionUser = async (headers: Headers): Promise<SessionUser | null> => {
    const session = await auth.api.getSession({ headers });
    return session ? { id: session.user.id, email: session.user.email, name: session.user.name, emailVerified: session.user.emailVerified } : null;
  };
  const sharedContext: Omit<AppContext, "clientAddress"> = {
    repos,
    publicRepos: { ...repos, categories: { ...repos.categories, listAll: categoriesForPages.listAll, findBySlug: categoriesForPages.findBySlug } },
    getSessionUser,
    config: publicConfig(config),
    trustedOrigins: config.trustedOrigins,
    rateLimits,
    logger,
    http: polite,
    jobs: options.jobs ?? noJobRunner,
    parseFeed: options.parseFeed ?? (async (input) => parseFeed(input)),
    facebook: options.facebook ?? null,
    invalidatePublicPages,
    sitePictureExists: sitePictureChecker(PUBLIC_DIR),
  };

  const trust = compileTrust(config.trustProxy);
  const bodyReading = { limits: options.bodyLimits ?? BODY_LIMITS, budget: options.bodyBudget ?? createBodyBudget(), timeoutMs: options.bodyReadTimeoutMs };
  // The addresses the server answers itself (own-routes.ts). Pictures are compressed already: like the
  // rest of these, they skip compression and the page cache.
  const ownRoutes = createOwnRoutes({
    auth: authRoute(auth, trust),
    image: createImageRoute({
      store: images,
      findImage: (id) => repos.publicStories.imageOf(id),
      cards: createShareCards({ logoSvg }),
      findCard: (id) => getStoryCard(repos, id),
      siteUrl: config.siteUrl,
    }),
    ...createOperationsRoutes({ database, logger, metricsToken: config.metrics.token, renderMetrics }),
  });
  const renderPage = createPageRenderer({ build: options.build, siteUrl: config.siteUrl, trust });

  /**
   * The session of a request, looked up once: the gate before its body and its handlers (the admin
   * gate's `getSessionUser`) share the one lookup while they ask with the request's own cookies.
   */
  const sessionOf = (req: IncomingMessage) => {
    const cookie = req.headers.cookie ?? null;
    let lookup: Promise<SessionUser | null> | null = null;
    const user = () => (lookup ??= getSessionUser(new Headers(cookie === null ? {} : { cookie })));
    const forHandlers: AppContext["getSessionUser"] = (headers) => (headers.get("cookie") === cookie ? user() : getSessionUser(headers));
    return { user, getSessionUser: forHandlers };
  };

  /**
   * Everything the page cache and the static files did not answer: the gate before bodies, the body
   * read within its limit and the process's budget, then the server's own addresses (the auth service,
   * story pictures, health and metrics: own-routes.ts), the development server's middleware, and the
   * pages (through the page cache, compressed unless it keeps them).
   */
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const session = sessionOf(req);
    const hasSession = async () => (await session.user()) !== null;
    if (await refusedBeforeBody(req, res, { trustedOrigins: config.trustedOrigins, siteUrl: config.siteUrl, hasSession })) return;
    if (!bodyLeftUnread(req) && !(await readRequestBody(req, res, bodyReading))) return;
    if (await ownRoutes(req, res, pathOf(req))) return;
    for (const middleware of options.before ?? []) if (!(await passedOn(middleware, req, res))) return;
    const context = { ...sharedContext, getSessionUser: session.getSessionUser, clientAddress: clientAddress(req, trust) };
    await publicCache.respond(req, res, {
      render: () => renderPage(req, res, { ...context, wholePage: rendersForPageCache(req) }),
      pass: (response) => sendResponse(req, res, response, { compress: true }),
    });
  };

  /** A request that failed past answering: logged, and a plain 500 if nothing was sent yet. */
  const failed = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    logger.error({ err: error, req: { method: req.method, url: urlForLog(req.url ?? "/") } }, "could not answer a request");
    if (res.headersSent) return void res.destroy();
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    applySecurityHeaders(req, res, { https });
    if (bodyLeftUnread(req)) res.setHeader("Connection", "close");
    sendBody(req, res, 500, "Internal Server Error", { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" });
  };

  // The production build's files, read once (absent in development, where Vite serves them).
  const clientDir = options.clientDir ?? path.join(BUILD_DIR, "client");
  const assets = options.before ? null : loadStaticAssets(path.join(clientDir, "assets"));
  const publicFiles = options.before ? null : loadStaticAssets(clientDir, { prefix: "/", cacheControl: PUBLIC_FILE_CACHE_CONTROL, skip: ["assets"] });
  /**
   * The whole server's request handler: every request is counted and timed; a hashed asset, one of
   * the site's own files and a page fresh in the page cache are answered from memory here (no
   * file-system call, no compression, no log line); anything else is logged and routed.
   */
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    // A hit writes its security headers with its own, at once, and is counted once it has.
    if (publicCache.serveHit(req, res)) return metrics.answeredFromCache(req, res, started);
    metrics.observe(req, res);
    applySecurityHeaders(req, res, { https });
    if (assets?.serve(req, res) || publicFiles?.serve(req, res)) return;
    logRequest(logger, req, res);
    // Once answered (or failed), what its body held of the budget is given back.
    route(req, res)
      .catch((error: unknown) => failed(req, res, error))
      .finally(() => releaseBody(req));
  };
  return { nodeHandler: handle, metrics, renderMetrics, origin, invalidatePublicPages, clearPublicPages };
}

/** Runs a connect-style middleware: true when it passed the request on, false when it answered. */
function passedOn(middleware: NodeMiddleware, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve, reject) => {
    res.once("close", () => resolve(false));
    middleware(req, res, (error?: unknown) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(true)));
  });
}

/** Starts serving on the configured port; resolves once the server listens. */
export async function startWebServer(options: Parameters<typeof createWebApp>[0]): Promise<WebServer> {
  const app = createWebApp(options);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createServer(app.nodeHandler);
    s.once("error", (error) => reject(listenErrorOf(error, options.config.port)));
    s.listen(options.config.port, options.config.host, () => resolve(s));
  });
  // METRICS_PORT: the table's /metrics alone, open, on a port of its own (kept off the public one by the firewall).
  const metricsPort = options.config.metrics.port;
  const metricsOnly = createOwnRoutes({ metrics: metricsRoute(app.renderMetrics, "open") });
  const metricsServer = metricsPort
    ? await new Promise<Server>((resolve, reject) => {
        const s = createServer((req, res) => {
          metricsOnly(req, res, pathOf(req)).then(
            (answered) => {
              if (answered) return;
              res.statusCode = 404;
              res.end("Not found");
            },
            (error: unknown) => res.writeHead(500, { "Content-Type": "text/plain" }).end(errorMessage(error)),
          );
        });
        s.once("error", (error) => reject(listenErrorOf(error, metricsPort, "METRICS_PORT")));
        s.listen(metricsPort, options.config.host, () => resolve(s));
      })
    : null;
  // Pages another web process changed are dropped here too (decision 004), and all of
  // them after the listener reconnects; that drops the memory cache only, not the shared last good copies.
  const { database, logger } = options;
  const changes = await listenForPublicPageChanges({
    connectionString: database.connectionString,
    origin: app.origin,
    onChange: app.clearPublicPages,
    onError: (error) => logger.warn({ err: errorMessage(error) }, "lost the database connection that tells of page changes; reconnecting"),
  }).catch(async (error: unknown) => {
    metricsServer?.close();
    await new Promise((resolve) => server.close(resolve));
    throw error;
  });
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
        void changes.close();
        metricsServer?.close();
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests still running get a moment to finish, then their connections are cut.
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}
