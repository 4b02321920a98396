import type { NodeMiddleware } from "../http/node-handler";
import type { ServerBuild } from "react-router";
import { runMigrations } from "~/db/migrate";
import { createRepos } from "~/db/repos";
import { ensureDefaultCategories } from "~/domain/categories/default-categories";
import { seedDemo } from "~/domain/demo/seed-demo";
import type { Database } from "~/db/client";
import { createGuardedClient, userAgentFor } from "~/integrations/http/guarded-client";
import { createPageRenderer } from "~/integrations/browser/render-page";
import { workerHandlers } from "./worker-handlers";
import { createPoliteness } from "../politeness";
import { createJobRunner, type JobRunner } from "~/jobs/runner";
import { openConfiguredDatabase, START_RETRY_MS } from "../database";
import { demoAdminBanner, demoAdminPassword } from "../demo-admin";
import { createFeedParserPool } from "./feed-parser-pool";
import { createFacebookGraph } from "../facebook";
import { schedulePostWith } from "~/domain/social/post-story";
import { configSecrets, describeConfig, withAuthSecret, type Config } from "../config";
import { createLogger, type Logger } from "../logger";
import { checkCanListen } from "../http/listen-error";
import { loadServerBuild, SEARCH_RATE_LIMITS, startWebServer, type WebServer } from "../http/web";
import { startWebCluster, type PrimaryLink, type WebCluster } from "./web-cluster";

/**
 * Prepares the database (migrations, default categories, optional demo content), then by ROLE
 * serves the site (web), runs background jobs (worker), or both (all). With WEB_CONCURRENCY above 1
 * the site is served by that many forked web processes (server/processes/web-cluster.ts) while this one runs
 * the jobs; each of them comes back here with `webProcess`, on the database this one opened.
 */
export async function serve(options: {
  config: Config;
  demo?: boolean;
  dev?: boolean;
  logger?: Logger;
  /** Set in a web process forked by the cluster primary: the database is prepared already, the search limits and metrics are the primary's. */
  webProcess?: PrimaryLink;
}): Promise<void> {
  if (!options.dev && process.env.NODE_ENV !== "production") {
    throw new Error("serve runs the production build: start it with NODE_ENV=production (bin/oddwire.mjs does)");
  }
  // The secret is settled here, once, for this process and the web processes it forks.
  const config = withAuthSecret(options.config);
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets: configSecrets(config) });
  const serving = config.role !== "worker";
  const working = config.role !== "web";
  const { webProcess } = options;
  // The site is served by forked web processes; this one prepares the database and runs the jobs.
  const clustered = serving && !options.dev && !webProcess && config.webConcurrency > 1;
  const { build, before, closeDev } = !serving || clustered
    ? { build: undefined }
    : options.dev
      ? await viteDevServer()
      : { build: await loadServerBuild() };

  // Without DATABASE_URL, this process owns the embedded server: one per DATA_DIR, whatever its ROLE
  // (separate web and worker processes are for a PostgreSQL of your own, DATABASE_URL).
  const database = await openConfiguredDatabase(config, logger, { retryForMs: START_RETRY_MS, role: "serve" });
  const http = createGuardedClient({ userAgent: userAgentFor(config.siteUrl), allowHosts: config.fetchAllowHosts });
  // Every request to a site goes through the one politeness gate (decision 021), the browser's too.
  const polite = createPoliteness({ http, repos: createRepos(database.db), logger, siteUrl: config.siteUrl });
  const feedParser = createFeedParserPool({ logger });
  // Launched on the first jsRendering page only.
  const renderer = createPageRenderer({ http: polite, executablePath: config.chromiumPath });
  const facebook = createFacebookGraph(config, logger);
  let web: WebServer | undefined;
  let webCluster: WebCluster | undefined;
  let clusterUrl: string | undefined;
  let jobs: JobRunner | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      logger.error("shutdown took longer than 15 s; exiting");
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await web?.close();
      await webCluster?.close();
      // Running jobs finish or are recorded as interrupted before the database goes away.
      await jobs?.stop();
      await renderer.close();
      await facebook?.close();
      await http.close();
      await feedParser.close();
      await closeDev?.();
      await database.close();
      logger.info("stopped");
    } catch (error) {
      logger.error({ err: error }, "error while shutting down");
      process.exitCode = 1;
    }
    // A web process's channel to the primary would keep it running.
    if (webProcess && process.connected) process.disconnect();
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
  // Without its primary a web process stops too.
  if (webProcess) process.once("disconnect", () => void stop("disconnect"));

  try {
    if (!webProcess) {
      await prepareDatabase(database, { demo: options.demo === true, dataDir: config.dataDir, logger });
    }
    // A web-only process still queues jobs and reads their progress; workers also run them.
    // A post's retry is queued by the post's own job: the handlers reach the runner once it exists.
    let runner: JobRunner | undefined;
    const schedulePost = schedulePostWith(() => {
      if (!runner) throw new Error("the job runner is not started");
      return runner;
    });
    const handlers = working
      ? workerHandlers({ config, repos: createRepos(database.db), http: polite, logger, parseFeed: feedParser.parse, parseSitemap: feedParser.parseSitemap, renderer, facebook, schedulePost })
      : undefined;
    jobs = runner = await createJobRunner({ database, logger, handlers });
    await jobs.start();
    if (clustered) {
      await checkCanListen(config.port, config.host);
      // The web processes open the database this one opened (the embedded server's too).
      webCluster = startWebCluster({ config: { ...config, databaseUrl: database.connectionString }, demo: options.demo === true, logger, limits: SEARCH_RATE_LIMITS });
      clusterUrl = await webCluster.ready;
    }
    else if (serving && build) {
      web = await startWebServer({
        config,
        database,
        logger,
        build,
        before,
        http,
        polite,
        jobs,
        parseFeed: feedParser.parse,
        facebook,
        demo: options.demo === true,
        rateLimits: webProcess?.rateLimits,
        renderMetrics: webProcess?.renderMetrics,
      });
      webProcess?.listening(web.url, web.metricsRegistry);
    }
  } catch (error) {
    // Stopped by a signal while starting: stop() has closed everything already.
    if (stopping) return;
    await web?.close();
    await webCluster?.close();
    await jobs?.stop();
    await renderer.close();
    await facebook?.close();
    await http.close();
    await feedParser.close();
    await database.close();
    throw error;
  }
  if (webProcess) return;
  if (stopping) return;
  const url = web?.url ?? clusterUrl;
  // Which code runs: bin/oddwire.mjs's bundle of the server (decision 018), or the sources through tsx.
  const code = process.env.ODDWIRE_SERVER_BUNDLE === "1" ? "bundle" : "sources";
  if (url) logger.info({ url, code, config: describeConfig(config) }, `Oddwire is serving on ${url}`);
  else logger.info({ code, config: describeConfig(config) }, "Oddwire is running background jobs (ROLE=worker)");
}

async function prepareDatabase(database: Database, options: { demo: boolean; dataDir: string; logger: Logger }) {
  await runMigrations(database);
  const repos = createRepos(database.db);
  const categoriesAdded = await ensureDefaultCategories(repos);
  if (categoriesAdded > 0) options.logger.info({ categoriesAdded }, "created the default categories");
  if (options.demo) {
    const result = await seedDemo({ repos }, { adminPassword: demoAdminPassword(options.dataDir) });
    options.logger.info(
      { storiesAdded: result.stories_added, rejectedAdded: result.rejected_added, sourcesAdded: result.sources_added, admin: result.admin.email },
      "Demo content loaded; the demo admin's password is printed below and kept in DATA_DIR/demo-admin-password",
    );
    process.stdout.write(demoAdminBanner(result.admin));
  }
}

// Development: Vite serves the app with hot reload and rebuilds the server code on each request.
async function viteDevServer() {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true } });
  return {
    build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    before: [vite.middlewares as unknown as NodeMiddleware],
    closeDev: () => vite.close(),
  };
}
