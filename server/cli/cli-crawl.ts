import { createReadStream } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { Database } from "~/db/client";
import { createRepos } from "~/db/repos";
import type { CrawlDeps } from "~/domain/crawl/deps";
import { runDiscoveryCycle } from "~/domain/crawl/discover";
import { scrapeQueue } from "~/domain/crawl/scrape-queue";
import { listUrlQueue, URL_QUEUE_STATUSES, type UrlQueueFilterStatus } from "~/domain/crawl/url-queue";
import { createPageRenderer } from "~/integrations/browser/render-page";
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, robotsUrlFor, type RobotsRules } from "~/integrations/crawl/robots";
import { parseSitemap, readSitemap } from "~/integrations/crawl/sitemap";
import { userAgentFor } from "~/integrations/http/guarded-client";
import { createPoliteness } from "../politeness";
import { configSecrets, type Config } from "../config";
import type { CRAWL_COMMANDS } from "./cli-commands";
import type { CliTools } from "./cli-tools";
import { createLogger } from "../logger";




const positiveInt = (value: string | undefined, name: string, usage: (m: string) => Error): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw usage(`${name} must be a positive whole number`);
  return n;
};

/** Runs one crawl command; returns its exit code. */
export async function runCrawlCommand(command: (typeof CRAWL_COMMANDS)[number], args: string[], tools: CliTools): Promise<number> {
  switch (command) {
    case "discover": {
      const { values } = parseArgs({ args, options: { source: { type: "string" } } });
      const sourceId = positiveInt(values.source, "--source", tools.usage);
      return tools.withDatabase((database, config) =>
        withCrawlDeps(database, config, tools, async (deps) => {
          const result = await runDiscoveryCycle(deps, { scope: "all", sourceIds: sourceId ? [sourceId] : undefined });
          tools.out(JSON.stringify(result));
        }),
      );
    }
    case "queue": {
      const { values } = parseArgs({ args, options: { status: { type: "string" }, source: { type: "string" }, limit: { type: "string" } } });
      const status = (values.status ?? "queued") as UrlQueueFilterStatus;
      if (!URL_QUEUE_STATUSES.includes(status)) throw tools.usage(`--status must be one of ${URL_QUEUE_STATUSES.join(", ")}`);
      const sourceId = positiveInt(values.source, "--source", tools.usage);
      const limit = positiveInt(values.limit, "--limit", tools.usage);
      return tools.withDatabase(async (database) => {
        const rows = await listUrlQueue({ repos: createRepos(database.db) }, { status, sourceId, limit });
        tools.out(JSON.stringify(rows));
      });
    }
    case "scrape-queue": {
      const { values } = parseArgs({ args, options: { source: { type: "string" }, limit: { type: "string" }, ids: { type: "string" } } });
      const sourceId = positiveInt(values.source, "--source", tools.usage);
      const limit = positiveInt(values.limit, "--limit", tools.usage);
      const ids = values.ids?.split(",").map((id) => positiveInt(id.trim(), "--ids", tools.usage) as number);
      return tools.withDatabase((database, config) =>
        withCrawlDeps(database, config, tools, async (deps) => {
          const { succeeded, failed, results } = await scrapeQueue(deps, { ids, sourceId, limit });
          tools.out(JSON.stringify({ succeeded, failed, results }));
        }),
      );
    }
    case "parse-sitemap": {
      const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
      if (positionals.length !== 1) throw tools.usage("parse-sitemap needs one FILE or URL");
      const target = positionals[0] as string;
      // A file is read as a stream, never whole; a URL's body is fetched first.
      const parsed = /^https?:\/\//i.test(target)
        ? await tools.readTarget(target, { accept: "application/xml, text/xml;q=0.9, text/plain;q=0.8, */*;q=0.5" }).then((input) =>
            parseSitemap(input.bytes, { url: input.url ?? target, contentType: input.contentType }),
          )
        : await readSitemap(() => createReadStream(target), { url: pathToFileURL(path.resolve(target)).href });
      for (const warning of parsed.warnings) tools.err(JSON.stringify({ warning }));
      tools.out(JSON.stringify({ kind: parsed.kind, urls: parsed.urls, sitemaps: parsed.sitemaps }));
      return 0;
    }
    case "robots-check": {
      const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { agent: { type: "string" } } });
      const [source, ...urls] = positionals;
      if (!source || urls.length === 0 || !values.agent) throw tools.usage("robots-check needs ROBOTS_FILE|URL, --agent UA and at least one URL");
      const agent = values.agent;
      const rulesFor = await robotsReader(source, tools);
      for (const url of urls) {
        const rules = rulesFor(url);
        tools.out(JSON.stringify({ url, allowed: rules.isAllowed(url, agent), crawlDelay: rules.crawlDelaySeconds(agent) }));
      }
      return 0;
    }
  }
}

// A robots.txt from a URL applies as fetched (4xx allows all, 5xx allows nothing); from a file, it is
// read as the robots.txt of each checked URL's own origin.
async function robotsReader(source: string, tools: CliTools): Promise<(url: string) => RobotsRules> {
  if (/^https?:\/\//i.test(source)) {
    const response = await tools.withHttp((http) => http.fetch(source, { headers: { accept: "text/plain, */*;q=0.5" } }));
    const rules =
      response.status >= 200 && response.status < 300
        ? parseRobots(response.url, response.body)
        : response.status >= 400 && response.status < 500
          ? ALLOW_ALL
          : DISALLOW_ALL;
    return () => rules;
  }
  const { bytes } = await tools.readTarget(source);
  return (url) => parseRobots(robotsUrlFor(url), Buffer.from(bytes));
}

async function withCrawlDeps(database: Database, config: Config, tools: CliTools, work: (deps: CrawlDeps) => Promise<void>): Promise<void> {
  const logger = createLogger({ level: config.logLevel, fd: 2, secrets: configSecrets(config) });
  await tools.withHttp(async (guarded) => {
    const repos = createRepos(database.db);
    const http = createPoliteness({ http: guarded, repos, logger, siteUrl: config.siteUrl });
    const renderer = createPageRenderer({ http, executablePath: config.chromiumPath });
    try {
      await work({ repos, http, logger, userAgent: userAgentFor(config.siteUrl), renderer });
    } finally {
      await renderer.close();
    }
  });
}
